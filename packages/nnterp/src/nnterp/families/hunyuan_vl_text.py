"""HunYuanVL's text model (`HunYuanVLTextModel`, model type `hunyuan_vl_text`).

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Hunyuan dense's block (per-head RMS norms on the queries and keys after the rotary
embedding) under a multimodal rotary embedding: the position ids carry several rows and
`mrope_section` splits each head's rotary channels among them. transformers has no
causal-LM class for `hunyuan_vl_text`: the text model is served only inside its
wrapper.

The `HunYuanVLForConditionalGeneration` wrapper (`hunyuan_vl`) is served by
`nnterp.families.hunyuan_vl`.
"""

from transformers.models.hunyuan_vl.modeling_hunyuan_vl import (
    HunYuanVLDenseV1Attention,
    HunYuanVLDenseV1DecoderLayer,
    HunYuanVLMLP,
)

from nnterp.components import Attention, Layer, Mlp

# The text model alone already names its embedding, blocks and final norm as nnterp does.
RENAME: dict[str, str] = {}


ENVOYS = {
    HunYuanVLDenseV1DecoderLayer: Layer,
    HunYuanVLDenseV1Attention: Attention,
    HunYuanVLMLP: Mlp,
}
