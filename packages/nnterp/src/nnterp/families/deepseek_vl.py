"""DeepSeek-VL (`DeepseekVLForConditionalGeneration`): Llama's text model behind a SigLIP tower and an MLP aligner.

The text stack sits under `model.language_model` and is served with Llama's classes
(`nnterp.families.llama`). The SigLIP tower (`vision`, `SiglipVisionModel` at
`model.vision_model`) has no pooling head; the aligner (`projector`, at `model.aligner`),
two linears around a GELU, applies to every patch. The wrapper scatters in
`DeepseekVLModel`, so `image_features` is the aligner's output, one image token per patch.
"""

from transformers.models.deepseek_vl.modeling_deepseek_vl import DeepseekVLModel
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import llama

RENAME = {
    **llama.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_model": "vision",
    "model.aligner": "projector",
    **SIGLIP_TOWER_RENAME,
}

ENVOYS = {
    **llama.ENVOYS,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    DeepseekVLModel: ImageScatter,
}
