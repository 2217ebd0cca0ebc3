"""DeepSeek-V3 (`DeepseekV3ForCausalLM`): latent attention, and a sigmoid-routed mixture after the first dense blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is multi-head latent attention: the queries, keys and values are read
where they enter the shared attention interface, with as many key/value heads as
query heads, `qk_head_dim` wide queries and keys and `v_head_dim` wide values (see
`nnterp.components.latent`). The first `first_k_dense_replace` blocks carry a dense
MLP, the others a mixture, so the mixture values are reported per block. The router
(`gate`) scores its logits with a sigmoid, adds a correction bias for the choice
only, keeps the best `topk_group` of `n_group` expert groups, then the top `top_k`
experts; `expert_weights` are their sigmoid scores, renormalized when
`norm_topk_prob` is set and multiplied by `routed_scaling_factor`. The shared
experts run on the mixture's input after the routed experts, and the module returns
the sum.
"""

from transformers.models.deepseek_v3.modeling_deepseek_v3 import (
    DeepseekV3Attention,
    DeepseekV3DecoderLayer,
    DeepseekV3MLP,
    DeepseekV3MoE,
)

from nnterp.components import LatentAttention, Layer, Mlp, Moe, latent_head_dim, latent_qk_head_dim

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """DeepSeek-V3's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys' (`config.head_dim` is the rotary width).
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim

ENVOYS = {
    DeepseekV3DecoderLayer: Layer,
    DeepseekV3Attention: LatentAttention,
    DeepseekV3MLP: Mlp,
    DeepseekV3MoE: Moe,
}
