"""LFM3 (`Lfm3ForCausalLM`): LFM2's hybrid of short-convolution and attention blocks, in a sandwich.

`config.layer_types` gives each block `conv`, a gated short convolution (native
`conv`, aliased `linear_attn`, `ShortConvolution`), or `sliding_attention` /
`full_attention`, attention with per-head query/key norms and a sigmoid gate per
head (`g_proj`) on its output before `o_proj`. Each sublayer's output is normed
before its add:
`h = x + post_attention_layernorm(mixer(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))`,
with `mixer` the block's `self_attn` or `linear_attn` and the four norms native
`operator_norm`, `post_operator_norm`, `ffn_norm` and `post_ffn_norm`. The MLP is
LFM2's (native `feed_forward`, SiLU as a function call) and the final norm is native
`embedding_norm`. The contributions are read at the native post-norms. The full attention blocks rotate half of each head's width; the
sliding ones rotate all of it.

The LFM3-VL wrapper (`lfm3_vl`) is served by `nnterp.families.lfm3_vl`.
"""

from transformers.models.lfm3.modeling_lfm3 import (
    Lfm3Attention,
    Lfm3DecoderLayer,
    Lfm3MLP,
    Lfm3ShortConv,
)

from nnterp.components import Attention, HybridLayer, SandwichLayer, normed_contribution
from nnterp.families import lfm2

RENAME = {
    **{native: alias for native, alias in lfm2.RENAME.items() if native != "ffn_norm" and isinstance(native, str)},
    Lfm3ShortConv: "linear_attn",
    "post_operator_norm": "post_attention_layernorm",
    "ffn_norm": "pre_feedforward_layernorm",
    "post_ffn_norm": "post_feedforward_layernorm",
}


class Layer(SandwichLayer, HybridLayer):
    """LFM3's sandwich block around one mixer; the sandwich and hybrid bases hold."""


class Attention(Attention):
    """LFM3's gated attention; the shared eager interface, the gate after it, the contribution post-normed."""

    attention_output = normed_contribution("post_operator_norm", "attention")


class ShortConvolution(lfm2.ShortConvolution):
    """LFM3's short convolution; LFM2's kernels, the contribution post-normed."""

    attention_output = normed_contribution("post_operator_norm", "attention")


class Mlp(lfm2.Mlp):
    """LFM3's gated MLP, LFM2's with its SiLU a function call; the contribution post-normed."""

    mlp_output = normed_contribution("post_ffn_norm", "mlp")


ENVOYS = {
    Lfm3DecoderLayer: Layer,
    Lfm3Attention: Attention,
    Lfm3ShortConv: ShortConvolution,
    Lfm3MLP: Mlp,
}
