"""Video-LLaVA (`VideoLlavaForConditionalGeneration`): Llama's text model behind two CLIP towers of one config.

The text stack sits under `model.language_model` and is served with Llama's classes
(`nnterp.families.llama`). `image_tower` is `vision`; `video_tower` has no alias, as it
runs on videos only. Both feed one projector (at `model.multi_modal_projector`) with the
CLS row dropped, and CLIP's `post_layernorm` norms the pooled CLS token only, so the
tower has no `norm`. The wrapper scatters the images first in `VideoLlavaModel`.
"""

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.video_llava.modeling_video_llava import VideoLlavaModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import llama

RENAME = {
    **llama.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.image_tower": "vision",
    "model.multi_modal_projector": "projector",
    **SIGLIP_TOWER_RENAME,
}

ENVOYS = {
    **llama.ENVOYS,
    CLIPVisionModel: Vision,
    CLIPEncoderLayer: VisionLayer,
    CLIPAttention: VisionAttention,
    CLIPMLP: VisionMlp,
    VideoLlavaModel: ImageScatter,
}
