"""Phi-3 (`Phi3ForCausalLM`): Llama's block with fused projections.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention computes the queries, keys and values with one `qkv_proj` and slices them apart; they
are read at the interface, after the rotary embedding. The MLP computes the gate and the up
projection with one `gate_up_proj`, then `down_proj(up * activation_fn(gate))`; `activation_fn` is
aliased `act_fn`, so `mlp_activation` is the activated gate and `mlp_neurons` the product the down
projection sums. No module outputs the up half alone. The block passes each contribution through
`resid_attn_dropout` / `resid_mlp_dropout`, identities at inference.
"""

from transformers.models.phi3.modeling_phi3 import Phi3Attention, Phi3DecoderLayer, Phi3MLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "activation_fn": "act_fn",
}


ENVOYS = {Phi3DecoderLayer: Layer, Phi3Attention: Attention, Phi3MLP: Mlp}
