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


class Layer(Layer):
    """ERNIE 4.5's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """ERNIE 4.5's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """ERNIE 4.5's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {Ernie4_5DecoderLayer: Layer, Ernie4_5Attention: Attention, Ernie4_5MLP: Mlp}
