"""Mellum (`MellumForCausalLM`): a Llama-order block with per-head query/key norms, sliding-window blocks, and
a softmax mixture on the blocks `mlp_layer_types` marks sparse.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms each head's queries and keys (`q_norm`, `k_norm`) before the
rotary embedding; blocks marked `sliding_attention` in `layer_types` attend over the
last `sliding_window` tokens, the others over the whole prefix, each kind with its
own rotary base. A block is dense or a mixture by its `mlp_layer_types` entry, so
the mixture values are reported per block. The router (`gate`) takes a softmax over
every expert and keeps the top `top_k`, renormalized when `norm_topk_prob` is set;
there is no shared expert.
"""

from transformers.models.mellum.modeling_mellum import (
    MellumAttention,
    MellumDecoderLayer,
    MellumMLP,
    MellumSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Mellum's mixture: a softmax router (`gate`), grouped experts, no shared expert."""

    SCORING = "softmax"
    ROUTER = "gate"


ENVOYS = {
    MellumDecoderLayer: Layer,
    MellumAttention: Attention,
    MellumMLP: Mlp,
    MellumSparseMoeBlock: Moe,
}
