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

from nnterp.components import Attention, EProperty, Layer, LogitLens, Mlp

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


#: The prediction head (`lm_head`) then the vocabulary projection (`decoder`) after the final norm.
project_on_vocab = LogitLens(head=("lm_head", "decoder"))


ENVOYS = {ModernBertDecoderLayer: Layer, ModernBertDecoderAttention: Attention, ModernBertDecoderMLP: Mlp}
