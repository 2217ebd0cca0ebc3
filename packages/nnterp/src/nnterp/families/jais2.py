"""Jais 2 (`Jais2ForCausalLM`): Llama's block with biased layer norms and a plain MLP.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The norms are `nn.LayerNorm`. The MLP is `down_proj(act_fn(up_proj(x)))` with ReLU² by default and
no `gate_proj`, so `mlp_neurons` is `mlp_activation` itself.
"""

from transformers.models.jais2.modeling_jais2 import Jais2Attention, Jais2DecoderLayer, Jais2MLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {Jais2DecoderLayer: Layer, Jais2Attention: Attention, Jais2MLP: Mlp}
