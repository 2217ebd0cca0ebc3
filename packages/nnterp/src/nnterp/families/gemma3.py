"""Gemma 3 (`Gemma3ForConditionalGeneration`): Gemma 3's text model behind a SigLIP tower and a pooling projector.

The text stack sits under `model.language_model` and is served with Gemma 3's classes
(`nnterp.families.gemma3_text`). The SigLIP tower (`vision`, at `model.vision_tower`)
has its `post_layernorm` over every patch as its `norm`, so `tower_output` is the
tower's normed output. The projector (at `model.multi_modal_projector`) pools that
output to `mm_tokens_per_image` rows per image, norms and projects them, and the
wrapper scatters them in `Gemma3Model`. The wrapper returns the head's output without
the softcap, so `project_on_vocab` softcaps on the causal LM only.

ShieldGemma 2 (`shieldgemma2`) builds this same wrapper from its checkpoint and is
served by `nnterp.families.shieldgemma2`, which composes this module.
"""

from transformers.models.gemma3.modeling_gemma3 import Gemma3Model
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import gemma3_text

RENAME = {**gemma3_text.RENAME, **SIGLIP_WRAPPER_RENAME}

#: Gemma 3's logit lens, which softcaps on the causal LM only.
project_on_vocab = gemma3_text.project_on_vocab

ENVOYS = {
    **gemma3_text.ENVOYS,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    Gemma3Model: ImageScatter,
}
