"""LLaVA-NeXT-Video (`LlavaNextVideoForConditionalGeneration`): Llama's text model behind a CLIP tower, with any-resolution crops.

The text stack sits under `model.language_model` and is served with Llama's classes
(`nnterp.families.llama`); the CLIP tower (`vision`, at `model.vision_tower`) has no
`norm`, since its `post_layernorm` norms the pooled CLS token only. The tower runs on
LLaVA-NeXT's any-resolution crops of each image (the resized whole, then the tiles, each
a row of the tower's values, CLS dropped before the projector at
`model.multi_modal_projector`), and a learned `image_newline` follows each row of the
tiles' projected grid, so `image_features` has more rows than `projector.output`. The
wrapper scatters the images first in `LlavaNextVideoModel`; its videos, pooled by
`vision_resampler`, enter at a second scatter.
"""

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.llava_next_video.modeling_llava_next_video import LlavaNextVideoModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import LLAVA_LAYOUT_RENAME, SIGLIP_TOWER_RENAME
from nnterp.families import llama

RENAME = {**llama.RENAME, **LLAVA_LAYOUT_RENAME, **SIGLIP_TOWER_RENAME}

ENVOYS = {
    **llama.ENVOYS,
    CLIPVisionModel: Vision,
    CLIPEncoderLayer: VisionLayer,
    CLIPAttention: VisionAttention,
    CLIPMLP: VisionMlp,
    LlavaNextVideoModel: ImageScatter,
}
