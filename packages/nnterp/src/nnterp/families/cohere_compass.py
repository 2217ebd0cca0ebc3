"""Cohere Compass (`CohereCompassForConditionalGeneration`): the Cohere Compass text model behind a packed Qwen3 ViT.

The text stack sits under `model.language_model` and is served with Cohere Compass's
text classes (`nnterp.families.cohere_compass_text`). The Qwen3 ViT (`vision`, at
`model.visual`) packs every image's patches into one row, adds a learned position grid
resampled to each image after `patch_embeddings`, rotates with a 2-D axial rotary and
calls its attention once per image (`PER_IMAGE`); it has no final norm, and its merger
(`projector`, at `model.visual.merger`) runs inside it. The wrapper scatters in
`CohereCompassModel`. DeepStack, as Qwen3-VL's: the tower blocks in
`vision_config.deepstack_visual_indexes` feed mergers of their own, whose outputs the
text model adds to the image rows after its early blocks (`layers[k].deepstack_output`),
so `image_features` is not the whole image.
"""

from transformers.models.cohere_compass.modeling_cohere_compass import (
    CohereCompassModel,
    CohereCompassVisionAttention,
    CohereCompassVisionBlock,
    CohereCompassVisionMLP,
    CohereCompassVisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import cohere_compass_text

RENAME = {
    **cohere_compass_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}

#: Cohere's logit lens, which multiplies by the model's `logit_scale`.
project_on_vocab = cohere_compass_text.project_on_vocab

ENVOYS = {
    **cohere_compass_text.ENVOYS,
    CohereCompassVisionModel: QwenVision,
    CohereCompassVisionBlock: VisionLayer,
    CohereCompassVisionAttention: QwenVisionAttention,
    CohereCompassVisionMLP: VisionMlp,
    CohereCompassModel: ImageScatter,
}
