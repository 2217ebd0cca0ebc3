"""Cosmos3 Edge's text model (`Cosmos3EdgeTextModel`).

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Llama's order with grouped-query attention under a multimodal rotary embedding (the
position ids carry a temporal, a height and a width row, and `mrope_section` splits each
head's rotary channels among them) and a plain MLP without a gate,
`down_proj(act_fn(up_proj(x)))` with a squared ReLU (the model's `fc1`, `fc2` and
`activation_fn`).

The type has no causal-LM class: the default task builds the wrapper with no
processor. The Cosmos3 Edge wrapper (`cosmos3_edge`) is served by
`nnterp.families.cosmos3_edge`.
"""

from transformers.models.cosmos3_edge.modeling_cosmos3_edge import (
    Cosmos3EdgeTextAttention,
    Cosmos3EdgeTextDecoderLayer,
    Cosmos3EdgeTextMLP,
)

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "fc1": "up_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}


ENVOYS = {
    Cosmos3EdgeTextDecoderLayer: Layer,
    Cosmos3EdgeTextAttention: Attention,
    Cosmos3EdgeTextMLP: Mlp,
}
