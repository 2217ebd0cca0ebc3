"""Ovis2 (`Ovis2ForConditionalGeneration`): Qwen2's text model behind a visual vocabulary.

The text stack sits under `model.language_model` and is served with Qwen2's classes
(`nnterp.families.qwen2`). The tower (`vision`, at `model.vision_tower`) runs a
transformer of SigLIP's shape with RMS norms, a gated MLP and a final `rms_norm` (its
`norm`) over the patches, whose output is `tower_output`. The tower then groups the
normed patches `hidden_stride` by side and its visual head turns each group into
probabilities over a visual vocabulary; that vocabulary's embedding table (`projector`,
at `model.visual_embeddings_table`) takes them, padded with zeros for the visual
indicators, as soft one-hot rows. The wrapper scatters in `Ovis2Model`, then writes the
indicators' embeddings at their own tokens (`<IMG_START>`, `<IMG_END>`, ...), which are
no image tokens.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.ovis2.modeling_ovis2 import (
    Ovis2MLP,
    Ovis2Model,
    Ovis2VisionAttention,
    Ovis2VisionEncoderLayer,
    Ovis2VisionModel,
)

from nnterp.components import EProperty, ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME, Patches, no_tower_run
from nnterp.families import qwen2

RENAME = {
    **qwen2.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.visual_embeddings_table": "projector",
    **SIGLIP_TOWER_RENAME,
    # The tower's inner names.
    "transformer.embeddings.patch_embedding": "patch_embed",
    "transformer.encoder.layers": "layers",
    "transformer.rms_norm": "norm",
    "rms_norm1": "input_layernorm",
    "rms_norm2": "post_attention_layernorm",
    "attention": "self_attn",
    "ffn": "mlp",
}


class Ovis2Vision(Vision):
    """Ovis2's tower: its transformer's output is the normed patches, before the visual head groups them."""

    @EProperty(
        "transformer.output",
        description="The last block's stream after the tower's final norm, before the visual head",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.last_hidden_state

    @tower_output.postprocess
    def tower_output(self, value):
        output = Mediator.value(f"{self.transformer.path}.output")
        output["last_hidden_state"] = value.reshape(output.last_hidden_state.shape)
        return output


ENVOYS = {
    **qwen2.ENVOYS,
    Ovis2VisionModel: Ovis2Vision,
    Ovis2VisionEncoderLayer: VisionLayer,
    Ovis2VisionAttention: VisionAttention,
    Ovis2MLP: VisionMlp,
    Ovis2Model: ImageScatter,
}
