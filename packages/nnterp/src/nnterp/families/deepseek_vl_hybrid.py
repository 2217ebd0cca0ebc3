"""DeepSeek-VL hybrid (`DeepseekVLHybridForConditionalGeneration`): DeepSeek-VL's layout with a second, high-resolution SAM tower.

The text stack sits under `model.language_model` and is served with Llama's classes
(`nnterp.families.llama`). `vision` is the SigLIP tower (`SiglipVisionModel` at
`model.vision_model`); the second tower, SAM's windowed ViT
(`model.high_res_vision_model`, no alias), runs on a larger copy of each image, and its
neck and convolutions bring it to the SigLIP grid. The aligner (`projector`, at
`model.aligner`) projects both towers' patches to half the text width each, joins them,
and projects again; the wrapper scatters in `DeepseekVLHybridModel`, so
`image_features` is the aligner's output.
"""

from transformers.models.deepseek_vl_hybrid.modeling_deepseek_vl_hybrid import DeepseekVLHybridModel
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
    DeepseekVLHybridModel: ImageScatter,
}
