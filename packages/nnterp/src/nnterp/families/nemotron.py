"""Nemotron (`NemotronForCausalLM`): Llama's block with shifted layer norms, a partial rotary embedding and a plain MLP.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The norms are `NemotronLayerNorm1P`, layer norms that scale by `1 + weight`. The rotary embedding
turns the first `partial_rotary_factor` of each head's channels. The MLP is
`down_proj(act_fn(up_proj(x)))` with ReLU² and no gate, so `mlp_neurons` is `mlp_activation` itself.
"""

from transformers.models.nemotron.modeling_nemotron import NemotronAttention, NemotronDecoderLayer, NemotronMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {NemotronDecoderLayer: Layer, NemotronAttention: Attention, NemotronMLP: Mlp}
