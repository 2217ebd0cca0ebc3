"""Mistral Small 4 (`Mistral4ForCausalLM`): a text model, DeepSeek-V3's block with a softmax-routed mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Transformers lists the type under image-text-to-text and pretraining only, both
building `Mistral4ForCausalLM`, a text model with no tower and no processor: no
causal-LM class names it, so a load asks for `task="image-text-to-text"`, and the
model has no `vision`.

The attention is multi-head latent attention (see `nnterp.components.latent`), read
where its queries, keys and values enter the shared attention interface, with as many
key/value heads as query heads, `qk_head_dim` wide queries and keys and `v_head_dim`
wide values. The cache holds the compressed latent and the rotary key, and every step
decompresses the keys and values of every cached position (`expand_kv`). Before the
interface the queries are multiplied by Llama 4's position factor,
`1 + llama_4_scaling_beta * log(1 + position // original_max_position_embeddings)`,
so `attention_queries` are the scaled queries. The first `first_k_dense_replace`
blocks carry a dense MLP, the others a mixture, so the mixture values are reported per
block. The router (`gate`) scores its logits with a softmax over every expert, keeps
the best `topk_group` of `n_group` groups (a group scored by its two best experts),
then the top `top_k` experts; `expert_weights` are their softmax scores, renormalized
when `norm_topk_prob` is set, times `routed_scaling_factor`. The shared experts run on
the mixture's input after the routed experts, and the module returns the sum.
"""

from transformers.models.mistral4.modeling_mistral4 import (
    Mistral4Attention,
    Mistral4DecoderLayer,
    Mistral4MLP,
    Mistral4MoE,
)

from nnterp.components import LatentAttention, Layer, Mlp, Moe, latent_head_dim, latent_qk_head_dim

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}
#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim


class Moe(Moe):
    """DeepSeek-V2's mixture: a grouped softmax router scaled by `routed_scaling_factor` (`gate`), shared experts."""

    SCORING = "softmax"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    Mistral4DecoderLayer: Layer,
    Mistral4Attention: LatentAttention,
    Mistral4MLP: Mlp,
    Mistral4MoE: Moe,
}
