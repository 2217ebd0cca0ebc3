"""LFM3-VL (`Lfm3VlForConditionalGeneration`): LFM3's sandwiched hybrid text model behind a packed hybrid tower.

The text stack sits under `model.language_model` and is served with LFM3's classes
(`nnterp.families.lfm3`). The tower (`vision`, at `model.vision_tower`) is itself a
hybrid: it packs every image's patches into one row, embeds each patch with a linear
layer and norms the row (`patch_embeddings` is the linear layer's output), then runs
blocks in LLaMA's order with a pre-norm MLP (native `ffn_norm`, named
`pre_feedforward_layernorm` as on the text blocks) and no post-norms. A block's mixer
is either a gated depthwise convolution over each image's patch grid (native `conv`,
aliased `linear_attn`, `VisionConvolution`) or grouped-query attention with query/key
norms, called once per image, so its pattern and scores are unavailable (`PER_IMAGE`).
The tower has no final norm: `tower_output` is the last block's stream, and the
projector (`projector`, at `model.multi_modal_projector`), outside the tower, norms it
and projects 2x2 patch groups to the text width. `Lfm3VlModel`'s forward scatters the
projected patches into the token embeddings.
"""

from transformers.models.lfm3_vl.modeling_lfm3_vl import (
    Lfm3VlModel,
    Lfm3VlVisionAttention,
    Lfm3VlVisionLayer,
    Lfm3VlVisionMLP,
    Lfm3VlVisionModel,
    Lfm3VlVisionShortConv,
)

from nnterp.components import (
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
    unavailable,
)
from nnterp.components.vision import TowerValues
from nnterp.families import lfm3

RENAME = {
    **lfm3.RENAME,
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

    mlp_activation = lfm3.Mlp.mlp_activation


ENVOYS = {
    **lfm3.ENVOYS,
    Lfm3VlVisionModel: QwenVision,
    Lfm3VlVisionLayer: VisionLayer,
    Lfm3VlVisionAttention: QwenVisionAttention,
    Lfm3VlVisionShortConv: VisionConvolution,
    Lfm3VlVisionMLP: VisionMlp,
    Lfm3VlModel: ImageScatter,
}
