"""Nemotron-H Omni (`NemotronH_Omni_Reasoning_V3`): Nemotron-H's text model behind a RADIO tower.

The text model sits under `language_model.model`, its head at `language_model.lm_head`,
and is served with Nemotron-H's classes (`nnterp.families.nemotron_h`). The RADIO tower
(`vision`, at `vision_model`) embeds each patch alone (`patch_embed`, its `patch_projection`), puts a CLS token and registers
before every image's patches, packs every image into one row, and scales each
sublayer's output per channel before the add, `h = x + layer_scale1 *
self_attn(input_layernorm(x)); out = h + layer_scale2 * mlp(post_attention_layernorm(h))`,
so `attention_output` and `mlp_output` are the scaled products. With several images it
calls the attention once per image, so no one call holds the pattern, the scores or
the head outputs. The wrapper drops the prefix rows, pixel-shuffles each image's grid
(`downsample_ratio` by side) and projects it (`projector`, at `multi_modal_projector`),
then scatters the features in its own top-level forward (`ROOT_SCATTER`).
"""

from transformers.models.radio.modeling_radio import RadioAttention, RadioLayer, RadioMLP, RadioModel

from nnterp.components import EProperty, Vision, VisionAttention, VisionLayer, VisionMlp, unavailable
from nnterp.components.attention import Keys, Queries, Values
from nnterp.components.scaled import scaled_output
from nnterp.components.vision import PER_IMAGE, variable_resolution
from nnterp.families import nemotron_h
from nnterp.families.nemotron_h import Attention, Layer, Mlp, Moe, StateSpace

__all__ = ["ENVOYS", "RENAME", "ROOT_SCATTER", "Attention", "Layer", "Mlp", "Moe", "StateSpace"]

RENAME = {
    **nemotron_h.RENAME,
    "language_model.model.embeddings": "embed_tokens",
    "language_model.model.layers": "layers",
    "language_model.model.norm_f": "norm",
    "language_model.lm_head": "lm_head",
    "vision_model": "vision",
    "multi_modal_projector": "projector",
    # RADIO's inner names, keyed relative to the tower.
    "embeddings.patch_projection": "patch_embed",
    "encoder.layer": "layers",
    "norm1": "input_layernorm",
    "norm2": "post_attention_layernorm",
    "attention": "self_attn",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}

#: Nemotron-H Omni writes the image features into the embeddings in its own forward.
ROOT_SCATTER = True
#: RADIO with several images: one attention call per image.
_PER_IMAGE_OUTPUTS = (
    "this tower calls the attention once per image when a prompt holds several, so no one call holds the "
    "head outputs; read attention_premix, every head's output side by side"
)


class RadioVision(Vision):
    """RADIO: every image's patches, each after its CLS token and registers, in one row, at the image's own size.

    Its config gives the MLP's width as a ratio of the stream's.
    """

    ONE_ROW = True
    image_size = property(variable_resolution)

    @property
    def intermediate_size(self) -> int:
        return int(self.vision_hidden_size * self.tower_config.mlp_ratio)


def _layer_scale_1(envoy):
    return envoy.parent._module.layer_scale1.lambda1


def _layer_scale_2(envoy):
    return envoy.parent._module.layer_scale2.lambda1


class RadioVisionAttention(VisionAttention):
    """RADIO's attention: the queries, keys and values at the transposes every run makes, the pattern per image.

    The block multiplies its output by the per-channel `layer_scale1` before the add.
    """

    @EProperty("source.transpose_0.output", description="The queries entering attention")
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty("source.transpose_1.output", description="The keys entering attention")
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty("source.transpose_2.output", description="The values entering attention")
    def attention_values(self, value) -> Values:
        return value

    attention_scores = unavailable(PER_IMAGE)
    attention_probabilities = unavailable(PER_IMAGE)
    attention_head_outputs = unavailable(_PER_IMAGE_OUTPUTS)
    attention_output = scaled_output(
        "What the attention adds to the patches' stream, after the block's layer_scale1", multiplier=_layer_scale_1
    )


class RadioVisionMlp(VisionMlp):
    """RADIO's ungated MLP: the block multiplies its output by the per-channel `layer_scale2` before the add."""

    mlp_output = scaled_output(
        "What the MLP adds to the patches' stream, after the block's layer_scale2", multiplier=_layer_scale_2
    )


ENVOYS = {
    **nemotron_h.ENVOYS,
    RadioModel: RadioVision,
    RadioLayer: VisionLayer,
    RadioAttention: RadioVisionAttention,
    RadioMLP: RadioVisionMlp,
}
