"""HyperCLOVA X Vision V2 (`HyperCLOVAXVisionV2ForConditionalGeneration`): HyperCLOVA X behind a Qwen2.5 ViT.

The wrapper's text config is HyperCLOVA X's (`hyperclovax`), served with that
family's envoy classes (`nnterp.families.hyperclovax`): the scaled sandwich block
under `model.language_model`. Its own module carries the wrapper's classes, so the
text family keeps importing on a release without the wrapper (5.17). Loaded with
`task="image-text-to-text"`.

The tower is a Qwen2.5 ViT at `model.vision_model` (`vision`): RMS norms, gated
MLPs, and window attention on every block outside `fullatt_block_indexes`. The
patches are reordered into window order before the blocks, and the block values and
`tower_output` stay in that order; the tower's own merger (`vision.merger`) merges
each 2x2 group of patches, projects it to `out_hidden_size` and restores the raster
order. A linear `projector` (at `model.projector`) then maps it to the text width,
and `HyperCLOVAXVisionV2Model`'s forward scatters its output. The attention runs
once per window or image, so its pattern and scores are unavailable (`PER_IMAGE`).
The text model multiplies the whole embedded stream, image rows included, by
`embedding_multiplier`, so block 0 receives `image_features` scaled; the head
multiplies by the text config's `logits_scaling`, as the causal LM's does, and so
does `project_on_vocab`.
"""

from transformers.models.hyperclovax_vision_v2.modeling_hyperclovax_vision_v2 import HyperCLOVAXVisionV2Model
from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import (
    Qwen2_5_VisionTransformerPretrainedModel,
    Qwen2_5_VLMLP,
    Qwen2_5_VLVisionAttention,
    Qwen2_5_VLVisionBlock,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import hyperclovax
from nnterp.families.hyperclovax import Attention, Layer, Mlp, project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "project_on_vocab"]

RENAME = {
    **hyperclovax.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_model": "vision",
    "model.projector": "projector",
    **QWEN_TOWER_RENAME,
}

ENVOYS = {
    **hyperclovax.ENVOYS,
    Qwen2_5_VisionTransformerPretrainedModel: QwenVision,
    Qwen2_5_VLVisionBlock: VisionLayer,
    Qwen2_5_VLVisionAttention: QwenVisionAttention,
    Qwen2_5_VLMLP: VisionMlp,
    HyperCLOVAXVisionV2Model: ImageScatter,
}
