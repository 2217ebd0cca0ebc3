"""GLM-4-MoE (`Glm4MoeForCausalLM`): a Llama-order block, dense first blocks, then a grouped sigmoid mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The first `first_k_dense_replace` blocks carry a dense MLP, the others a mixture,
so the mixture values are reported per block. The router (`gate`) scores its logits
with a sigmoid, adds a correction bias for the choice only, keeps the best
`topk_group` of `n_group` expert groups and then the top `top_k` experts; the weights
are their sigmoid scores, renormalized when `norm_topk_prob` is set and multiplied by
`routed_scaling_factor`. The shared experts run on the mixture's input after the
routed experts, and the module returns the sum. The rotary embedding covers part of
each head (`partial_rotary_factor`).
"""

from transformers.models.glm4_moe.modeling_glm4_moe import (
    Glm4MoeAttention,
    Glm4MoeDecoderLayer,
    Glm4MoeMLP,
    Glm4MoeMoE,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """GLM-4-MoE's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    Glm4MoeDecoderLayer: Layer,
    Glm4MoeAttention: Attention,
    Glm4MoeMLP: Mlp,
    Glm4MoeMoE: Moe,
}
