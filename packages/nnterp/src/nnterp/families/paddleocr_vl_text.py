"""PaddleOCR-VL's text model (`PaddleOCRTextModel`), an Ernie 4.5 block with a multimodal rotary embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

An Ernie 4.5 block (Llama's order, grouped-query attention) under a multimodal rotary
embedding: the position ids carry a temporal, a height and a width row, and
`mrope_section` splits each head's rotary channels among them.

The PaddleOCR-VL wrapper (`paddleocr_vl`) is served by `nnterp.families.paddleocr_vl`.
"""

from transformers.models.paddleocr_vl.modeling_paddleocr_vl import (
    PaddleOCRAttention,
    PaddleOCRDecoderLayer,
    PaddleOCRMLP,
)

from nnterp.components import Attention, Layer, Mlp

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}

ENVOYS = {
    PaddleOCRDecoderLayer: Layer,
    PaddleOCRAttention: Attention,
    PaddleOCRMLP: Mlp,
}
