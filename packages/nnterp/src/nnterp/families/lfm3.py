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

The family also serves the `Lfm3VlForConditionalGeneration` wrapper, loaded with
`task="image-text-to-text"`: the text model under `model.language_model`, and LFM3-VL's
tower (`vision`, at `model.vision_tower`), itself a hybrid. The tower packs every
image's patches into one row, embeds each patch with a linear layer and norms the
row (`patch_embeddings` is the linear layer's output), then runs blocks in LLaMA's order
with a pre-norm MLP (native `ffn_norm`, named `pre_feedforward_layernorm` as on the
text blocks) and no post-norms. A block's mixer is either a gated depthwise
convolution over each image's patch grid (native `conv`, aliased `linear_attn`,
`VisionConvolution`) or grouped-query attention with query/key norms, called once
per image, so its pattern and scores are unavailable (`PER_IMAGE`). The tower has no
final norm: `tower_output` is the last block's stream, and the projector
(`model.multi_modal_projector`), outside the tower, norms it and projects 2x2 patch
groups to the text width. `Lfm3VlModel`'s forward scatters the projected patches
into the token embeddings.
"""

from transformers.models.lfm3.modeling_lfm3 import (
    Lfm3Attention,
    Lfm3DecoderLayer,
    Lfm3MLP,
    Lfm3ShortConv,
)
from transformers.models.lfm3_vl.modeling_lfm3_vl import (
    Lfm3VlModel,
    Lfm3VlVisionAttention,
    Lfm3VlVisionLayer,
    Lfm3VlVisionMLP,
    Lfm3VlVisionModel,
    Lfm3VlVisionShortConv,
)

from nnterp.components import (
    Attention,
    EProperty,
    HybridLayer,
    ImageScatter,
    QwenVision,
    QwenVisionAttention,
    Residual,
    SandwichLayer,
    VisionLayer,
    VisionMlp,
    first_tensor,
    normed_contribution,
    unavailable,
)
from nnterp.components.vision import TowerValues
from nnterp.families import lfm2

RENAME = {
    **{native: alias for native, alias in lfm2.RENAME.items() if native != "ffn_norm" and isinstance(native, str)},
    Lfm3ShortConv: "linear_attn",
    "post_operator_norm": "post_attention_layernorm",
    "ffn_norm": "pre_feedforward_layernorm",
    "post_ffn_norm": "post_feedforward_layernorm",
    "model.language_model.embed_tokens": "embed_tokens",
    "model.language_model.layers": "layers",
    "model.language_model.embedding_norm": "norm",
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    Lfm3VlVisionShortConv: "linear_attn",
}

#: Why the tower's convolution has no attention interior.
_NO_ATTENTION_TERMS = (
    "this tower block's mixer is a gated depthwise convolution over each image's patch grid: "
    "it has no queries, keys, values, heads or pattern"
)


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


class VisionLayer(VisionLayer, HybridLayer):
    """A tower block: one mixer, then the MLP, each added as it is; the MLP's pre-norm is named as on the text blocks."""

    layer_mid = SandwichLayer.layer_mid
    mlp_norm_output = SandwichLayer.mlp_norm_output


class VisionConvolution(TowerValues):
    """A tower block's gated depthwise convolution, `vision.layers[i].linear_attn`.

    It projects each patch to an input gate, an output gate and the convolved
    channels, convolves the gated channels over each image's patch grid with one
    filter per channel, gates the result and projects it back; every image is
    convolved alone, so no value crosses images.
    """

    @EProperty("output", description="What the convolution adds to the patches' stream")
    def attention_output(self, value) -> Residual:
        return first_tensor(value)

    attention_queries = unavailable(_NO_ATTENTION_TERMS)
    attention_keys = unavailable(_NO_ATTENTION_TERMS)
    attention_values = unavailable(_NO_ATTENTION_TERMS)
    attention_scores = unavailable(_NO_ATTENTION_TERMS)
    attention_probabilities = unavailable(_NO_ATTENTION_TERMS)
    attention_head_outputs = unavailable(_NO_ATTENTION_TERMS)
    attention_premix = unavailable(_NO_ATTENTION_TERMS)


class VisionMlp(VisionMlp):
    """A tower block's gated MLP, LFM2's, whose SiLU is a function call."""

    mlp_activation = lfm2.Mlp.mlp_activation


ENVOYS = {
    Lfm3DecoderLayer: Layer,
    Lfm3Attention: Attention,
    Lfm3ShortConv: ShortConvolution,
    Lfm3MLP: Mlp,
    Lfm3VlVisionModel: QwenVision,
    Lfm3VlVisionLayer: VisionLayer,
    Lfm3VlVisionAttention: QwenVisionAttention,
    Lfm3VlVisionShortConv: VisionConvolution,
    Lfm3VlVisionMLP: VisionMlp,
    Lfm3VlModel: ImageScatter,
}
