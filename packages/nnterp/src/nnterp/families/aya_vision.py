"""Aya Vision (`AyaVisionForConditionalGeneration`): Cohere 2's text model behind a SigLIP tower and a pixel-shuffle projector.

The text stack sits under `model.language_model` and is served with Cohere 2's classes
(`nnterp.families.cohere2`). The SigLIP tower (`vision`, at `model.vision_tower`) has its
`post_layernorm` over every patch as its `norm`. The projector (at
`model.multi_modal_projector`) pixel-shuffles each image's patch grid
(`downsample_factor` by side) before a norm and a SwiGLU, so an image has a quarter as
many image tokens as patches; the wrapper scatters in `AyaVisionModel`. The wrapper's
head output is not multiplied by `logit_scale`, and neither is `project_on_vocab`'s.
"""

from transformers.models.aya_vision.modeling_aya_vision import AyaVisionModel
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import cohere2

RENAME = {**cohere2.RENAME, **SIGLIP_WRAPPER_RENAME}

#: Cohere 2's logit lens, which multiplies by `logit_scale` on the causal LM only.
project_on_vocab = cohere2.project_on_vocab

ENVOYS = {
    **cohere2.ENVOYS,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    AyaVisionModel: ImageScatter,
}
