"""Qwen2.5-Omni's thinker text model (`Qwen2_5OmniThinkerTextModel`), served on `Qwen2_5OmniThinkerForConditionalGeneration`.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen2.5-VL's text block (`qwen2_5_vl_text`): Qwen2's block under the multimodal
rotary embedding. The thinker holds the text model under `model.language_model`,
Qwen2.5-VL's windowed ViT (`vision`) under `model.visual` with its merger
(`projector`) running inside it, and an audio tower under `model.audio_tower`.
The tower reorders the patches into window order before its blocks, so its block
values and `tower_output` stay in that order, and reverses it after the merger, so
`image_features` is in raster order. Its attention runs once per window or image,
so the pattern and scores are unavailable (`PER_IMAGE`). `Qwen2_5OmniThinkerModel`
scatters the audio features first, then the image features, then the video
features, into the token embeddings; `image_features` is read at the image's
scatter. That model is keyed by its path (`model`), since a release that has the
type but not the class imports this module too. Audio values are not served: the
audio tower has no standard names or values, and a run without audio leaves it idle.
"""

from transformers.models.qwen2_5_omni.modeling_qwen2_5_omni import (
    Qwen2_5OmniAttention,
    Qwen2_5OmniDecoderLayer,
    Qwen2_5OmniMLP,
    Qwen2_5OmniVisionAttention,
    Qwen2_5OmniVisionBlock,
    Qwen2_5OmniVisionEncoder,
)
from transformers.models.qwen2_5_omni.modeling_qwen2_5_omni import Qwen2MLP as Qwen2_5OmniTextMLP

from nnterp.components import (
    Attention,
    ImageScatter,
    Layer,
    Mlp,
    QwenVision,
    QwenVisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import QWEN_VL_WRAPPER_RENAME

RENAME = dict(QWEN_VL_WRAPPER_RENAME)


class ThinkerScatter(ImageScatter):
    """The thinker's model: its forward scatters the audio features, then the image's, then the video's."""

    #: The second scatter of the forward's source: the first writes the audio features.
    scatter = "inputs_embeds_masked_scatter_1"


ENVOYS = {
    Qwen2_5OmniDecoderLayer: Layer,
    Qwen2_5OmniAttention: Attention,
    Qwen2_5OmniTextMLP: Mlp,
    Qwen2_5OmniVisionEncoder: QwenVision,
    Qwen2_5OmniVisionBlock: VisionLayer,
    Qwen2_5OmniVisionAttention: QwenVisionAttention,
    Qwen2_5OmniMLP: VisionMlp,
    # Keyed by path: a release before `Qwen2_5OmniThinkerModel` lacks the class, and this module imports there too.
    "model.model": ThinkerScatter,
}
