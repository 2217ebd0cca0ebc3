"""Qwen2.5-VL's text model (`Qwen2_5_VLTextModel`), served on the `Qwen2_5_VLForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen2-VL's text block: Qwen2's block under the multimodal rotary embedding. The
wrapper's Qwen2.5 ViT (`vision`, at `model.visual`) differs from Qwen2-VL's: RMS
norms, gated MLPs, and window attention on every block outside
`fullatt_block_indexes`. Before the blocks it reorders the patches into window
order, and its block values and `tower_output` stay in that order; the merger
(`projector`) reverses it after projecting, so `image_features` is in raster order.
The attention runs once per window or image, so its pattern and scores are
unavailable (`PER_IMAGE`).
"""

from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import (
    Qwen2_5_VisionTransformerPretrainedModel,
    Qwen2_5_VLAttention,
    Qwen2_5_VLDecoderLayer,
    Qwen2_5_VLMLP,
    Qwen2_5_VLModel,
    Qwen2_5_VLVisionAttention,
    Qwen2_5_VLVisionBlock,
)
from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2MLP as Qwen2_5_VLTextMLP

from nnterp.components import (
    Attention,
    ImageScatter,
    Layer,
    Mlp,
    QwenVision,
    QwenVisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN_TOWER_RENAME,
}


ENVOYS = {
    Qwen2_5_VLDecoderLayer: Layer,
    Qwen2_5_VLAttention: Attention,
    Qwen2_5_VLTextMLP: Mlp,
    Qwen2_5_VisionTransformerPretrainedModel: QwenVision,
    Qwen2_5_VLVisionBlock: VisionLayer,
    Qwen2_5_VLVisionAttention: QwenVisionAttention,
    Qwen2_5_VLMLP: VisionMlp,
    Qwen2_5_VLModel: ImageScatter,
}
