"""Cohere (`CohereForCausalLM`, Command-R): a parallel block with one norm, and scaled logits.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

One bias-free LayerNorm feeds both sublayers, so `mlp_norm_output` is the
attention's normed input and `layer_mid` is unavailable. The block adds
`(x + attn) + mlp`, the identity's own order, so the contribution identity holds
bit for bit. The attention is the shared eager interface; with `use_qk_norm` the
queries and keys pass per-head LayerNorms before the rotary embedding. The MLP is
Llama's gated one. The model multiplies the head's output by `logit_scale`, which
`project_on_vocab` does too.
"""

from transformers.models.cohere.modeling_cohere import CohereAttention, CohereDecoderLayer, CohereMLP

from nnterp.components import Attention, Mlp, ParallelLayer

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(ParallelLayer):
    """Cohere's parallel block; `input_layernorm` feeds both sublayers, so the parallel base holds."""


class Attention(Attention):
    """Cohere's attention; the shared eager interface and the contribution its output, so the base holds."""


class Mlp(Mlp):
    """Cohere's gated MLP, Llama's; the base holds."""


def project_on_vocab(model, hidden):
    """The logit lens: the final norm, `lm_head`, then the model's multiplication by its `logit_scale`."""
    if not model.interleaver.interleaving:
        hidden = hidden.to(model.lm_head._module.weight.device)
    return model.lm_head(model.norm(hidden)) * model._module.logit_scale


ENVOYS = {CohereDecoderLayer: Layer, CohereAttention: Attention, CohereMLP: Mlp}
