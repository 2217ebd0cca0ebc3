"""Janus (`JanusForConditionalGeneration`): Llama's text model behind a SigLIP-built tower and an MLP aligner.

The text stack sits under `model.language_model` and is served with Llama's classes
(`nnterp.families.llama`). The tower (`vision`, `JanusVisionModel` at
`model.vision_model`) has no CLS token; its `post_layernorm` norms every patch (its
`norm`; it runs a second time on the first patch alone, for a pooled output the wrapper
does not use), and its MLP width is `mlp_ratio` times its own. The MLP aligner
(`projector`, at `model.aligner`) is fed the normed patches; the wrapper scatters in
`JanusModel`. Its VQ-VAE and generation head serve image generation and hold no values.
"""

from transformers.models.janus.modeling_janus import (
    JanusModel,
    JanusVisionAttention,
    JanusVisionEncoderLayer,
    JanusVisionMLP,
    JanusVisionModel,
)

from nnterp.components import ImageScatter, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME, SiglipVision
from nnterp.families import llama

RENAME = {
    **llama.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_model": "vision",
    "model.aligner": "projector",
    **SIGLIP_TOWER_RENAME,
    "projection_layer": "o_proj",
}


class JanusVision(SiglipVision):
    """Janus's tower: its config gives the MLP's width as a ratio of its own."""

    @property
    def intermediate_size(self) -> int:
        config = self.tower_config
        return int(config.hidden_size * config.mlp_ratio)


ENVOYS = {
    **llama.ENVOYS,
    JanusVisionModel: JanusVision,
    JanusVisionEncoderLayer: VisionLayer,
    JanusVisionAttention: VisionAttention,
    JanusVisionMLP: VisionMlp,
    JanusModel: ImageScatter,
}
