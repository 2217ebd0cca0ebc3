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


ENVOYS = {SeedOssDecoderLayer: Layer, SeedOssAttention: Attention, SeedOssMLP: Mlp}
