"""Arcee (`ArceeForCausalLM`): Llama's block with a plain (ungated) MLP.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The MLP is `down_proj(act_fn(up_proj(x)))` with ReLU² by default and no `gate_proj`, so
`mlp_neurons` is `mlp_activation` itself.
"""

from transformers.models.arcee.modeling_arcee import ArceeAttention, ArceeDecoderLayer, ArceeMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {ArceeDecoderLayer: Layer, ArceeAttention: Attention, ArceeMLP: Mlp}
