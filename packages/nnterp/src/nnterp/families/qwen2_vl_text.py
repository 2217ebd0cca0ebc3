"""Qwen2-VL's text model (`Qwen2VLTextModel`): Qwen2's block under a multimodal rotary embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The position ids carry a temporal, a height and a width row, and `mrope_section`
splits each head's rotary channels among them, so image tokens are placed on their
patch grid. The text model's own names (`embed_tokens`, `layers`, `norm`) are the
standard ones.

The Qwen2-VL wrapper (`qwen2_vl`) is served by `nnterp.families.qwen2_vl`.
"""

from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2MLP as Qwen2VLMLP
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLAttention, Qwen2VLDecoderLayer

from nnterp.components import Attention, Layer, Mlp

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}


ENVOYS = {
    Qwen2VLDecoderLayer: Layer,
    Qwen2VLAttention: Attention,
    Qwen2VLMLP: Mlp,
}
