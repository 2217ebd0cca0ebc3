"""StarCoder2 (`Starcoder2ForCausalLM`): Llama's block with biased layer norms and a plain MLP.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The norms are `nn.LayerNorm`. The MLP is `c_proj(act(c_fc(x)))` without a gate: `c_proj` is aliased
`down_proj` and `act` is aliased `act_fn`, so `mlp_neurons` (the down projection's input) is
`mlp_activation` itself. The attention's and the MLP's residual dropouts are functional calls inside
their forwards and do nothing at inference.
"""

from transformers.models.starcoder2.modeling_starcoder2 import (
    Starcoder2Attention,
    Starcoder2DecoderLayer,
    Starcoder2MLP,
)

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "mlp.c_proj": "mlp.down_proj",
    "act": "act_fn",
}


ENVOYS = {Starcoder2DecoderLayer: Layer, Starcoder2Attention: Attention, Starcoder2MLP: Mlp}
