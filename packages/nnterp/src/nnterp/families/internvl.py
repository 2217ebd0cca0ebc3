"""InternVL (`InternVLForConditionalGeneration`): a Qwen2 or Qwen3 text model behind an InternViT tower.

The text stack sits under `model.language_model` and is served with the classes of its
text family (`nnterp.families.qwen2`, or `qwen3` for InternVL 3.5). The InternViT tower
(`vision`, at `model.vision_tower`) puts a CLS token first on the patch axis and scales
each sublayer's output per channel before the add,
`h = x + lambda_1 * self_attn(input_layernorm(x)); out = h + lambda_2 * mlp(post_attention_layernorm(h))`,
so `attention_output` and `mlp_output` are the scaled products; its final `layernorm` is
the tower's `norm`. The wrapper drops the CLS row and pixel-shuffles the patch grid
(`downsample_ratio` by side) before the projector (at `model.multi_modal_projector`), so
`projector.input` is the shuffled grid, and scatters in `InternVLModel`.
"""

from transformers.models.internvl.modeling_internvl import (
    InternVLModel,
    InternVLVisionAttention,
    InternVLVisionLayer,
    InternVLVisionMLP,
    InternVLVisionModel,
)

from nnterp.components import ImageScatter, VisionLayer
from nnterp.components.vision import (
    INTERNVIT_TOWER_RENAME,
    LLAVA_LAYOUT_RENAME,
    SIGLIP_TOWER_RENAME,
    InternVision,
    InternVisionAttention,
    InternVisionMlp,
)
from nnterp.families import qwen2, qwen3

RENAME = {**qwen2.RENAME, **LLAVA_LAYOUT_RENAME, **SIGLIP_TOWER_RENAME, **INTERNVIT_TOWER_RENAME}

ENVOYS = {
    **qwen2.ENVOYS,
    **qwen3.ENVOYS,
    InternVLVisionModel: InternVision,
    InternVLVisionLayer: VisionLayer,
    InternVLVisionAttention: InternVisionAttention,
    InternVLVisionMLP: InternVisionMlp,
    InternVLModel: ImageScatter,
}
