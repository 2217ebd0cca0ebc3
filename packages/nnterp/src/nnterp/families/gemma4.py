"""Gemma 4 (`Gemma4ForConditionalGeneration`): Gemma 4's text model behind its own sandwich-block ViT and an embedder.

The wrapper is built under the default task too, with no processor. The text stack sits
under `model.language_model` and is served with Gemma 4's classes
(`nnterp.families.gemma4_text`). The ViT (`vision`, at `model.vision_tower`) runs
sandwich blocks over patches linearly embedded (`patch_embed`) with a 2-D position
table, its pattern non-causal over the image's patches, the patch axis padded to a
fixed row count per image (padding rows masked out). The tower's own output pools the
last block's stream and drops the padding, so `tower_output` is the encoder's output,
`[images, patches, vision_hidden_size]` before pooling; the tower has no final norm. The
projector is the embedder (`embed_vision`, a scale-free norm and a projection) over the
pooled rows, and the wrapper scatters them in `Gemma4Model`. The resolution is the
image's own (`image_size` unavailable). The audio tower has no values.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.gemma4.modeling_gemma4 import (
    Gemma4Model,
    Gemma4VisionAttention,
    Gemma4VisionEncoderLayer,
    Gemma4VisionMLP,
    Gemma4VisionModel,
)

from nnterp.components import (
    EProperty,
    ImageScatter,
    Patches,
    SandwichAttention,
    SandwichLayer,
    SandwichMlp,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    no_tower_run,
    variable_resolution,
)
from nnterp.components import Vision as BaseVision
from nnterp.components.vision import WRAPPED_TEXT_RENAME
from nnterp.families import gemma4_text

RENAME = {
    **gemma4_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.embed_vision": "projector",
    "patch_embedder": "patch_embed",
    "encoder.layers": "layers",
}

#: The sliding-window blocks' head width, as on the text model.
head_dim = gemma4_text.head_dim


class Vision(BaseVision):
    """Gemma 4's ViT: no fixed resolution, and an output pooled past the blocks, so `tower_output` is the encoder's."""

    image_size = property(variable_resolution)

    @EProperty(
        "encoder.output",
        description="The last block's stream, before the tower pools it and drops the padding rows",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.last_hidden_state

    @tower_output.postprocess
    def tower_output(self, value):
        output = Mediator.value(f"{self.encoder.path}.output")
        output["last_hidden_state"] = value.reshape(output.last_hidden_state.shape)
        return output


class TowerLayer(VisionLayer):
    """A tower block of Gemma 4's ViT: a sandwich block, so the stream between the sublayers enters `pre_feedforward_layernorm`."""

    layer_mid = SandwichLayer.layer_mid
    mlp_norm_output = SandwichLayer.mlp_norm_output


class TowerAttention(VisionAttention):
    """A tower block's attention: the shared eager interface, the contribution post-normed."""

    attention_output = SandwichAttention.attention_output


class TowerMlp(VisionMlp):
    """A tower block's gated MLP: the contribution post-normed."""

    mlp_output = SandwichMlp.mlp_output


ENVOYS = {
    **gemma4_text.ENVOYS,
    Gemma4VisionModel: Vision,
    Gemma4VisionEncoderLayer: TowerLayer,
    Gemma4VisionAttention: TowerAttention,
    Gemma4VisionMLP: TowerMlp,
    Gemma4Model: ImageScatter,
}
