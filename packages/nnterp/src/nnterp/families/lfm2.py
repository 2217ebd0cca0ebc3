"""LFM2 (`Lfm2ForCausalLM`): a hybrid of short-convolution blocks and attention blocks.

`config.layer_types` gives each block either `conv`, a gated short convolution
(native `conv`, aliased `linear_attn`, `ShortConvolution`), or `full_attention`,
attention with per-head query/key norms (`self_attn`, its `out_proj` aliased
`o_proj`). Every block has the same
gated MLP (native `feed_forward`, its projections `w1`, `w3`, `w2` aliased
`gate_proj`, `up_proj`, `down_proj`) and Llama's order:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn` and the norms native
`operator_norm` and `ffn_norm`. The final norm is native `embedding_norm`, though it
follows the last block. The MLP applies its SiLU as a function, read at that call.

The LFM2-VL wrapper (`lfm2_vl`) is served by `nnterp.families.lfm2_vl`.
"""

from transformers.models.lfm2.modeling_lfm2 import (
    Lfm2Attention,
    Lfm2DecoderLayer,
    Lfm2MLP,
    Lfm2ShortConv,
)

from nnterp.components import Attention, EProperty, HybridLayer, Mlp, always
from nnterp.components.mlp import Neurons
from nnterp.components.short_convolution import ShortConvolution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.embedding_norm": "norm",
    Lfm2ShortConv: "linear_attn",
    "self_attn.out_proj": "self_attn.o_proj",
    "operator_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
    "feed_forward": "mlp",
    "feed_forward.w1": "feed_forward.gate_proj",
    "feed_forward.w3": "feed_forward.up_proj",
    "feed_forward.w2": "feed_forward.down_proj",
}


class Mlp(Mlp):
    """LFM2's gated MLP, whose SiLU is a function call rather than an `act_fn` module."""

    @EProperty("source.F_silu_0.output", unavailable=always, description="The activation function's output")
    def mlp_activation(self, value) -> Neurons:
        return value


ENVOYS = {
    Lfm2DecoderLayer: HybridLayer,
    Lfm2Attention: Attention,
    Lfm2ShortConv: ShortConvolution,
    Lfm2MLP: Mlp,
}
