"""VideoLLaMA 3 (`VideoLlama3ForConditionalGeneration`): Qwen2's text model behind a SigLIP-named NaViT.

The text stack sits under `model.language_model` and is served with Qwen2's classes
(`nnterp.families.qwen2`). The NaViT (`vision`, at `model.vision_model`, SigLIP's inner
names) packs every image's patches into one row, embeds each patch alone
(`[patches, width, 1, 1]`), turns its queries and keys by a 2-D rotary embedding and
calls the attention once per image, so its pattern and scores are unavailable. After
the final norm (`post_layernorm`, whose output is `tower_output`) it pools each image's
grid by its merge size (one for images: no pooling); its MLP readout (`projector`, at
`model.projector`) projects the patches to the text width and the wrapper scatters them
in `VideoLlama3Model`.
"""

from transformers.models.video_llama_3.modeling_video_llama_3 import (
    VideoLlama3Model,
    VideoLlama3VisionAttention,
    VideoLlama3VisionEncoderLayer,
    VideoLlama3VisionMLP,
    VideoLlama3VisionModel,
)

from nnterp.components import EProperty, ImageScatter, VisionLayer, VisionMlp
from nnterp.components.vision import (
    SIGLIP_TOWER_RENAME,
    WRAPPED_TEXT_RENAME,
    Patches,
    PatchwiseVision,
    QwenVisionAttention,
    no_tower_run,
)
from nnterp.families import qwen2

RENAME = {
    **qwen2.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_model": "vision",
    "model.projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}


class VideoLlama3Vision(PatchwiseVision):
    """VideoLLaMA 3's NaViT: `tower_output` is its final norm's output, before it pools each image's grid."""

    @EProperty(
        "norm.output",
        description="The last block's stream after the tower's final norm, before the tower pools it",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.unsqueeze(0)

    @tower_output.postprocess
    def tower_output(self, value):
        return value.squeeze(0)


ENVOYS = {
    **qwen2.ENVOYS,
    VideoLlama3VisionModel: VideoLlama3Vision,
    VideoLlama3VisionEncoderLayer: VisionLayer,
    VideoLlama3VisionAttention: QwenVisionAttention,
    VideoLlama3VisionMLP: VisionMlp,
    VideoLlama3Model: ImageScatter,
}
