"""Qwen3-Omni's thinker (`Qwen3OmniMoeThinkerForConditionalGeneration`): a mixture text model, the Qwen3 ViT, audio.

The text stack sits under `model.language_model` and is served with Qwen3-Omni's text
classes (`nnterp.families.qwen3_omni_moe_text`), its mixtures and DeepStack taps
included. The Qwen3 ViT (`vision`, at `model.visual`) packs every image's patches into
one row, adds a learned position grid, and attends per image (`PER_IMAGE`). It has no
final norm: `tower_output` is the last block's stream, and its merger (`projector`, at
`model.visual.merger`) norms its own input and runs inside the tower. DeepStack as
Qwen3-VL's: the tower blocks listed in `vision_config.deepstack_visual_indexes` each
feed a merger of their own, and the text model adds the k-th one's output to the image
rows after text block k. An audio tower sits under `model.audio_tower`.
`Qwen3OmniMoeThinkerModel` scatters the audio features first, then the image's, then
the video's; `image_features` is read at the image's scatter (`ThinkerScatter`). That
model is keyed by its path (`model`), since a release that has the type but not the
class imports this module too. Audio values are not served: the audio tower has no
standard names or values, and a run without audio leaves it idle.
"""

from transformers.models.qwen3_omni_moe.modeling_qwen3_omni_moe import (
    Qwen3OmniMoeVisionAttention,
    Qwen3OmniMoeVisionBlock,
    Qwen3OmniMoeVisionEncoder,
    Qwen3OmniMoeVisionMLP,
)

from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.thinker import ThinkerScatter
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import qwen3_omni_moe_text

RENAME = {
    **qwen3_omni_moe_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}

ENVOYS = {
    **qwen3_omni_moe_text.ENVOYS,
    Qwen3OmniMoeVisionEncoder: QwenVision,
    Qwen3OmniMoeVisionBlock: VisionLayer,
    Qwen3OmniMoeVisionAttention: QwenVisionAttention,
    Qwen3OmniMoeVisionMLP: VisionMlp,
    # Keyed by path: a release before `Qwen3OmniMoeThinkerModel` lacks the class, and this module imports there too.
    "model.model": ThinkerScatter,
}
