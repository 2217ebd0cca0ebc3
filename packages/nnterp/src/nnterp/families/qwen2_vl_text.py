"""Qwen2-VL's text model (`Qwen2VLTextModel`), served on the `Qwen2VLForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen2's block under a multimodal rotary embedding: the position ids carry a
temporal, a height and a width row, and `mrope_section` splits each head's rotary
channels among them, so image tokens are placed on their patch grid. The wrapper
holds the text model under `model.language_model` and the Qwen ViT under
`model.visual`, whose merger (`projector`) runs inside the tower. The ViT packs
every image's patches into one row and calls the attention once per image, so its
pattern and scores are unavailable (`PER_IMAGE`).
"""

from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2MLP as Qwen2VLMLP
from transformers.models.qwen2_vl.modeling_qwen2_vl import (
    Qwen2VisionTransformerPretrainedModel,
    Qwen2VLAttention,
    Qwen2VLDecoderLayer,
    Qwen2VLModel,
    Qwen2VLVisionBlock,
)
from transformers.models.qwen2_vl.modeling_qwen2_vl import VisionAttention as Qwen2VLVisionAttention
from transformers.models.qwen2_vl.modeling_qwen2_vl import VisionMlp as Qwen2VLVisionMlp

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
    Qwen2VLDecoderLayer: Layer,
    Qwen2VLAttention: Attention,
    Qwen2VLMLP: Mlp,
    Qwen2VisionTransformerPretrainedModel: QwenVision,
    Qwen2VLVisionBlock: VisionLayer,
    Qwen2VLVisionAttention: QwenVisionAttention,
    Qwen2VLVisionMlp: VisionMlp,
    Qwen2VLModel: ImageScatter,
}
