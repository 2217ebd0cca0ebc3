"""PaliGemma (`PaliGemmaForConditionalGeneration`): a Gemma text model behind a SigLIP tower and a linear projector.

The text stack sits under `model.language_model` and is served with the classes of its
text family, Gemma (PaliGemma) or Gemma 2 (PaliGemma 2), `nnterp.families.gemma` and
`gemma2`. The SigLIP tower (`vision`, at `model.vision_tower`) has its `post_layernorm`
over every patch as its `norm`; the linear projector is at
`model.multi_modal_projector`. The wrapper scatters in `PaliGemmaModel`, into
embeddings already scaled, so the features are the stream block 0 reads at the image
tokens. The wrapper's mask lets the prompt (the image tokens and the text before the
answer) attend both ways, so a text block's pattern has no causal mask over the prompt.
"""

from transformers.models.paligemma.modeling_paligemma import PaliGemmaModel
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import gemma, gemma2

RENAME = {**gemma.RENAME, **SIGLIP_WRAPPER_RENAME}

ENVOYS = {
    **gemma2.ENVOYS,
    **gemma.ENVOYS,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    PaliGemmaModel: ImageScatter,
}
