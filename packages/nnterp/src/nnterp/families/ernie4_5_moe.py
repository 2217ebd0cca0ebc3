"""ERNIE 4.5 MoE (`Ernie4_5_MoeForCausalLM`): a Llama-order block, dense blocks outside the mixture schedule.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Blocks between `moe_layer_start_index` and `moe_layer_end_index`, every
`moe_layer_interval`, carry a mixture; the others a dense MLP, so the mixture values
are reported per block. The router (`gate`) takes a softmax over every expert in
float32, chooses the top `top_k` after adding a correction bias (`moe_statics`) and
renormalizes the chosen softmax weights. The shared experts run on the mixture's
input before the router, so `shared_expert_output` comes first in the read order,
and the module returns the routed output plus the shared one.
"""

from transformers.models.ernie4_5_moe.modeling_ernie4_5_moe import (
    Ernie4_5_MoeAttention,
    Ernie4_5_MoeDecoderLayer,
    Ernie4_5_MoeMLP,
    Ernie4_5_MoeSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """ERNIE 4.5's mixture: a softmax router with a choice bias (`gate`), grouped experts, shared experts first."""

    SCORING = "softmax"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    Ernie4_5_MoeDecoderLayer: Layer,
    Ernie4_5_MoeAttention: Attention,
    Ernie4_5_MoeMLP: Mlp,
    Ernie4_5_MoeSparseMoeBlock: Moe,
}
