"""Llava (`LlavaForConditionalGeneration`): a text model behind a SigLIP, CLIP or Pixtral tower and a projector.

The text stack sits under `model.language_model` and is served with the classes of its
text family: Qwen2 (llava-interleave), Llama (LLaVA 1.5) or Mistral (Pixtral 12B),
`nnterp.families.qwen2`, `llama` and `mistral`. The tower is `vision` (at
`model.vision_tower`), and the projector (at `model.multi_modal_projector`) reads the
`vision_feature_layer` block's stream, before any final norm; the wrapper scatters in
`LlavaModel`. A SigLIP tower's `post_layernorm` norms every patch and is its `norm`
(`SiglipVision`); CLIP's norms the pooled CLS token only, so a CLIP tower has no `norm`.
A Pixtral tower packs every image's cropped patch grid into one row (`PixtralVision`).
"""

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.llava.modeling_llava import LlavaModel
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
)
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import ImageScatter, PixtralVision, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import LLAVA_LAYOUT_RENAME, PIXTRAL_TOWER_RENAME, SIGLIP_TOWER_RENAME, SiglipVision
from nnterp.families import llama, mistral, qwen2

RENAME = {**qwen2.RENAME, **LLAVA_LAYOUT_RENAME, **SIGLIP_TOWER_RENAME, **PIXTRAL_TOWER_RENAME}

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
    PixtralVisionModel: PixtralVision,
    PixtralAttentionLayer: VisionLayer,
    PixtralAttention: VisionAttention,
    PixtralMLP: VisionMlp,
    LlavaModel: ImageScatter,
}
