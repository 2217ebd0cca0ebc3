"""GLM (`GlmForCausalLM`): Llama's block with a fused gate/up projection and a partial rotary embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The rotary embedding turns only the first `partial_rotary_factor` of each head's channels, in
interleaved pairs. The MLP computes the gate and the up projection with one `gate_up_proj`, then
`down_proj(up * activation_fn(gate))`; `activation_fn` is aliased `act_fn`, so `mlp_activation` is
the activated gate and `mlp_neurons` the product the down projection sums. No module outputs the up
half alone. The MLP and its alias are Phi-3's, whose module GLM's copies.
"""

from transformers.models.glm.modeling_glm import GlmAttention, GlmDecoderLayer, GlmMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "activation_fn": "act_fn",
}


ENVOYS = {GlmDecoderLayer: Layer, GlmAttention: Attention, GlmMLP: Mlp}
