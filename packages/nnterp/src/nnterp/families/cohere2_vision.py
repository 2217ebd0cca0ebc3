"""Command A Vision (`Cohere2VisionForConditionalGeneration`): Cohere 2's text model behind a tiled SigLIP tower, built as Aya Vision.

The text stack sits under `model.language_model` and is served with Cohere 2's classes
(`nnterp.families.cohere2`). The SigLIP tower (`vision`, at `model.vision_tower`) runs
once per tile of an image (a grid of tiles and a thumbnail where the image is larger
than one tile), and the projector (at `model.multi_modal_projector`) pixel-shuffles each
tile's patch grid (`downsample_factor` by side) into a SwiGLU with no norm before it;
the wrapper scatters in `Cohere2VisionModel`. Its head output is not multiplied by
`logit_scale`, and neither is `project_on_vocab`'s.
"""

from transformers.models.cohere2_vision.modeling_cohere2_vision import Cohere2VisionModel
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
    Cohere2VisionModel: ImageScatter,
}
