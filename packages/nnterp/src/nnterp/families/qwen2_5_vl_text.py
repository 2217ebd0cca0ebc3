"""Qwen2.5-VL's text model (`Qwen2_5_VLTextModel`): Qwen2's block under a multimodal rotary embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen2-VL's text block: the position ids carry a temporal, a height and a width row,
and `mrope_section` splits each head's rotary channels among them. The text model's
own names (`embed_tokens`, `layers`, `norm`) are the standard ones.

The Qwen2.5-VL wrapper (`qwen2_5_vl`) is served by `nnterp.families.qwen2_5_vl`.
"""

from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLAttention, Qwen2_5_VLDecoderLayer
from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2MLP as Qwen2_5_VLTextMLP

from nnterp.components import Attention, Layer, Mlp

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}


ENVOYS = {
    Qwen2_5_VLDecoderLayer: Layer,
    Qwen2_5_VLAttention: Attention,
    Qwen2_5_VLTextMLP: Mlp,
}
