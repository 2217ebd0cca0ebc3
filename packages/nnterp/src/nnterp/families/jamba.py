"""Jamba (`JambaForCausalLM`): Llama's block order on Mamba-1 blocks and attention blocks, with mixtures on some.

`config.layers_block_type` (from `attn_layer_period` and `attn_layer_offset`) gives each
block either `linear_attn`, a Mamba-1 mixer (`SelectiveScan`, native `mamba`), or
`self_attn`; `config.layers_num_experts` (from `expert_layer_period` and
`expert_layer_offset`) gives each block either a mixture or a dense gated MLP, both
native `feed_forward`, aliased `mlp`, behind the norm native `pre_ff_layernorm`:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. The mixer normalizes `B`, `C`
and the step size before the scan, so the served values are the normed tensors the
kernel receives. The mixture's router (`router`) takes a softmax over every expert and
keeps the top `top_k` weights as they are (no renormalization); there is no shared expert.
"""

from transformers.models.jamba.modeling_jamba import (
    JambaAttention,
    JambaAttentionDecoderLayer,
    JambaMambaDecoderLayer,
    JambaMambaMixer,
    JambaMLP,
    JambaSparseMoeBlock,
)

from nnterp.components import Attention, HybridLayer, Mlp, Moe, SelectiveScan

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "mamba": "linear_attn",
    "feed_forward": "mlp",
    "pre_ff_layernorm": "post_attention_layernorm",
}


class Moe(Moe):
    """Jamba's mixture: a softmax router keeping the top-k weights unnormalized (`router`), grouped experts."""

    SCORING = "softmax"


ENVOYS = {
    JambaAttentionDecoderLayer: HybridLayer,
    JambaMambaDecoderLayer: HybridLayer,
    JambaAttention: Attention,
    JambaMambaMixer: SelectiveScan,
    JambaMLP: Mlp,
    JambaSparseMoeBlock: Moe,
}
