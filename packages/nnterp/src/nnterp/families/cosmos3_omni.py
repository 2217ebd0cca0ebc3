"""Cosmos3 Omni (`Cosmos3OmniForConditionalGeneration`): Qwen3-VL's architecture under its own wrapper classes.

The same text model as Qwen3-VL's, served with that family's classes
(`nnterp.families.qwen3_vl_text`): Qwen3's block under the multimodal rotary embedding,
under `model.language_model`, behind the Qwen3 ViT (`vision`, at `model.visual`) and
its merger (`projector`), with the deepstack taps and the tower `nnterp.families.qwen3_vl`
describes; the wrapper scatters in `Cosmos3OmniModel`. Its reasoner serves images (and
videos, through the same tower); the unified checkpoint's generator, sound and action
towers are dropped at load, so the loaded model has no other path.
"""

from transformers.models.cosmos3_omni.modeling_cosmos3_omni import Cosmos3OmniModel

from nnterp.components import ImageScatter
from nnterp.families import qwen3_vl, qwen3_vl_text

RENAME = dict(qwen3_vl.RENAME)

ENVOYS = {**qwen3_vl_text.ENVOYS, **qwen3_vl.TOWER_ENVOYS, Cosmos3OmniModel: ImageScatter}
