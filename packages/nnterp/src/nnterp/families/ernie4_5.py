"""ERNIE 4.5 (`Ernie4_5ForCausalLM`): Llama's block with an interleaved rotary embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The rotary embedding rotates adjacent pairs of channels; `use_bias` puts biases on every projection.
The queries and keys are read after the rotation, as the interface receives them.
"""

from transformers.models.ernie4_5.modeling_ernie4_5 import Ernie4_5Attention, Ernie4_5DecoderLayer, Ernie4_5MLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {Ernie4_5DecoderLayer: Layer, Ernie4_5Attention: Attention, Ernie4_5MLP: Mlp}
