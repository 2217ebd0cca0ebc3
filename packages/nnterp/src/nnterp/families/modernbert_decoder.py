"""ModernBERT decoder (`ModernBertDecoderForCausalLM`, model type `modernbert-decoder`): a head with its own transform.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

The head is two modules: the native `lm_head` is a prediction head (`dense`, an
activation, a LayerNorm) that maps the final norm's output to another stream-wide
vector, and `decoder` projects that onto the vocabulary. nnsight refuses an alias
that hides a native child, so `lm_head` stays the prediction head, and
`lm_head_output` is read on `decoder`, the projection whose output is the logits.
`project_on_vocab` runs the final norm, `lm_head` and `decoder`, as the model does.
The embedding module norms the token embeddings before block 0 (`token_embeddings`
is the table's output, before that norm), and block 0's attention norm is an
identity. The MLP is one fused input projection `Wi` split into an input and a
gate, `act(input) * gate`, then `Wo`, so `mlp_neurons` is not `mlp_activation`
times a module's output. Blocks attend globally or within a sliding window per
`layer_types`.
"""

from transformers.models.modernbert_decoder.modeling_modernbert_decoder import (
    ModernBertDecoderAttention,
    ModernBertDecoderLayer,
    ModernBertDecoderMLP,
)

from nnterp.components import Attention, EProperty, Layer, Mlp

RENAME = {
    "model.embeddings.tok_embeddings": "embed_tokens",
    "model.layers": "layers",
    "model.final_norm": "norm",
    "attn": "self_attn",
    "attn_norm": "input_layernorm",
    "mlp_norm": "post_attention_layernorm",
    "attn.Wo": "attn.o_proj",
    "mlp.Wo": "mlp.down_proj",
    "mlp.act": "mlp.act_fn",
}


#: The vocabulary projection after the native prediction head.
lm_head_output = EProperty("decoder.output")


def project_on_vocab(model, hidden):
    """Logits for a residual-stream tensor: the final norm, the prediction head, then the vocabulary projection."""
    if not model.interleaver.interleaving:
        hidden = hidden.to(model.decoder._module.weight.device)
    return model.decoder(model.lm_head(model.norm(hidden)))


class Layer(Layer):
    """ModernBERT decoder's block; a pre-norm block returning the bare tensor, so the base holds."""


class Attention(Attention):
    """ModernBERT decoder's attention; the shared eager interface, its output projection `Wo`, so the base holds."""


class Mlp(Mlp):
    """ModernBERT decoder's gated MLP; `Wo` sums `act(input) * gate` of the fused `Wi`, so the base holds."""


ENVOYS = {ModernBertDecoderLayer: Layer, ModernBertDecoderAttention: Attention, ModernBertDecoderMLP: Mlp}
