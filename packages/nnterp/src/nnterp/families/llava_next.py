"""LLaVA-NeXT (`LlavaNextForConditionalGeneration`): Llava's layout, the tower run on any-resolution crops of each image.

The text stack sits under `model.language_model` and is served with the classes of its
text family: Llama (Vicuna), Mistral or Qwen2, `nnterp.families.llama`, `mistral` and
`qwen2`. The tower is `vision` (at `model.vision_tower`): a SigLIP tower, whose
`post_layernorm` norms every patch and is its `norm` (`SiglipVision`), or a CLIP tower,
whose `post_layernorm` norms the pooled CLS token only and is no `norm`. The projector
(at `model.multi_modal_projector`) reads the `vision_feature_layer` block's stream.

The tower runs on each image's any-resolution crops (the resized whole, then the tiles),
so a tower value has one row per crop; the wrapper unpads the tiles' projected grid and
appends its learned `image_newline` after each grid row before the scatter in
`LlavaNextModel`, so `image_features` has more rows than `projector.output`.
"""

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.llava_next.modeling_llava_next import LlavaNextModel
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import LLAVA_LAYOUT_RENAME, SIGLIP_TOWER_RENAME, SiglipVision
from nnterp.families import llama, mistral, qwen2

RENAME = {**qwen2.RENAME, **LLAVA_LAYOUT_RENAME, **SIGLIP_TOWER_RENAME}

ENVOYS = {
    **mistral.ENVOYS,
    **llama.ENVOYS,
    **qwen2.ENVOYS,
    SiglipVisionModel: SiglipVision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    CLIPVisionModel: Vision,
    CLIPEncoderLayer: VisionLayer,
    CLIPAttention: VisionAttention,
    CLIPMLP: VisionMlp,
    LlavaNextModel: ImageScatter,
}
