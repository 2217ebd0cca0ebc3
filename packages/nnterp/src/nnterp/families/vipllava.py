"""VipLlava (`VipLlavaForConditionalGeneration`): Llama's text model behind a CLIP tower and a several-block projector.

The text stack sits under `model.language_model` and is served with Llama's classes
(`nnterp.families.llama`). The CLIP tower (`vision`, at `model.vision_tower`) carries the
CLS token first on the patch axis in its block values; the projector (at
`model.multi_modal_projector`) norms and projects several blocks' streams
(`vision_feature_layers`), each without its CLS row, joined along the width; the wrapper
scatters in `VipLlavaModel`. CLIP's `post_layernorm` norms the pooled CLS token only, so
`tower_output` is the last block's stream and the tower has no `norm`.
"""

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.vipllava.modeling_vipllava import VipLlavaModel

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
    VipLlavaModel: ImageScatter,
}
