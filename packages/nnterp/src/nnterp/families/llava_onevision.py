"""LLaVA-OneVision (`LlavaOnevisionForConditionalGeneration`): Qwen2's text model behind a SigLIP tower, with any-resolution crops.

The text stack sits under `model.language_model` and is served with Qwen2's classes
(`nnterp.families.qwen2`). The SigLIP tower (`vision`, at `model.vision_tower`) has its
`post_layernorm` over every patch as its `norm`; the projector (at
`model.multi_modal_projector`) reads the last block's stream before that norm. The tower
runs on each image's any-resolution crops (the resized whole, then the tiles), so a
tower value has one row per crop; the wrapper unpads the tiles' projected grid and
appends its learned `image_newline` after each grid row before the scatter in
`LlavaOnevisionModel`, so `image_features` has more rows than `projector.output`.
OneVision crops an image only where its sample holds one image (the processor's
`batch_num_images`); an image of a several-image sample is its padded whole, followed by
one newline row.
"""

from transformers.models.llava_onevision.modeling_llava_onevision import LlavaOnevisionModel
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import qwen2

RENAME = {**qwen2.RENAME, **SIGLIP_WRAPPER_RENAME}

ENVOYS = {
    **qwen2.ENVOYS,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    LlavaOnevisionModel: ImageScatter,
}
