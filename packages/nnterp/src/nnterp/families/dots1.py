"""dots.llm1 (`Dots1ForCausalLM`): Qwen3's attention, dense first blocks, then a grouped sigmoid mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms each head's queries and keys (`q_norm`, `k_norm`) inside the
module. The first `first_k_dense_replace` blocks carry a dense MLP, the others a
mixture, reported per block. The router (`gate`) scores with a sigmoid, adds a
correction bias for the choice only, keeps the best `topk_group` of `n_group` groups,
then the top `top_k` experts, renormalized when `norm_topk_prob` is set and scaled by
`routed_scaling_factor`. The shared experts run after the routed experts, and the
module returns the sum.
"""

from transformers.models.dots1.modeling_dots1 import (
    Dots1Attention,
    Dots1DecoderLayer,
    Dots1MLP,
    Dots1MoE,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """dots.llm1's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    Dots1DecoderLayer: Layer,
    Dots1Attention: Attention,
    Dots1MLP: Mlp,
    Dots1MoE: Moe,
}
