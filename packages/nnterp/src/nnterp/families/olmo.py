"""OLMo (`OlmoForCausalLM`): Llama's block with layer norms that have no weight or bias.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`input_layernorm`, `post_attention_layernorm` and the final `norm` are parameter-free layer norms
(`OlmoLayerNorm`). With `clip_qkv` set, the attention clamps the query, key and value projections in
place before the rotary embedding; the interior values are read after the clamp.
"""

from transformers.models.olmo.modeling_olmo import OlmoAttention, OlmoDecoderLayer, OlmoMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """OLMo's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """OLMo's attention; the optional `clip_qkv` clamp, then the shared eager interface, so the base holds."""


class Mlp(Mlp):
    """OLMo's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {OlmoDecoderLayer: Layer, OlmoAttention: Attention, OlmoMLP: Mlp}
