"""Qwen2.5-Omni's thinker (`Qwen2_5OmniThinkerForConditionalGeneration`): a Qwen2 text model, Qwen2.5-VL's ViT, audio.

The text stack sits under `model.language_model` and is served with Qwen2.5-Omni's text
classes (`nnterp.families.qwen2_5_omni_text`). Qwen2.5-VL's windowed ViT (`vision`, at
`model.visual`) packs every image's patches into one row and has no final norm:
`tower_output` is the last block's stream, and its merger (`projector`, at
`model.visual.merger`) norms its own input and runs inside the tower. The tower
reorders the patches into window order before its blocks, so its block values and
`tower_output` stay in that order, and reverses it after the merger, so
`image_features` is in raster order. Its attention runs once per window or image, so
the pattern and scores are unavailable (`PER_IMAGE`). An audio tower sits under
`model.audio_tower`. `Qwen2_5OmniThinkerModel` scatters the audio features first, then
the image features, then the video features, into the token embeddings;
`image_features` is read at the image's scatter (`ThinkerScatter`). That model is keyed
by its path (`model`), since a release that has the type but not the class imports this
module too. Audio values are not served: the audio tower has no standard names or
values, and a run without audio leaves it idle.
"""

from transformers.models.qwen2_5_omni.modeling_qwen2_5_omni import (
    Qwen2_5OmniMLP,
    Qwen2_5OmniVisionAttention,
    Qwen2_5OmniVisionBlock,
    Qwen2_5OmniVisionEncoder,
)

from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.thinker import ThinkerScatter
from nnterp.components.vision import QWEN_VL_WRAPPER_RENAME
from nnterp.families import qwen2_5_omni_text

RENAME = {**qwen2_5_omni_text.RENAME, **QWEN_VL_WRAPPER_RENAME}

ENVOYS = {
    **qwen2_5_omni_text.ENVOYS,
    Qwen2_5OmniVisionEncoder: QwenVision,
    Qwen2_5OmniVisionBlock: VisionLayer,
    Qwen2_5OmniVisionAttention: QwenVisionAttention,
    # The tower's MLP: the text model's is `Qwen2MLP`.
    Qwen2_5OmniMLP: VisionMlp,
    # Keyed by path: a release before `Qwen2_5OmniThinkerModel` lacks the class, and this module imports there too.
    "model.model": ThinkerScatter,
}
