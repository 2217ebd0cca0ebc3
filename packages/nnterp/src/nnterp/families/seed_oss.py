"""Seed-OSS (`SeedOssForCausalLM`): Llama's block with biased query/key/value projections.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`attention_out_bias` puts a bias on `o_proj`. The attention's and the MLP's residual dropouts are
functional calls inside their forwards and do nothing at inference.
"""

from transformers.models.seed_oss.modeling_seed_oss import SeedOssAttention, SeedOssDecoderLayer, SeedOssMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Seed-OSS's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Seed-OSS's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Seed-OSS's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {SeedOssDecoderLayer: Layer, SeedOssAttention: Attention, SeedOssMLP: Mlp}
