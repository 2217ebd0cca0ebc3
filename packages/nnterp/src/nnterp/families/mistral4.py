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

from nnterp.families import deepseek_v2, deepseek_v3

RENAME = deepseek_v3.RENAME
#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = deepseek_v3.head_dim
qk_head_dim = deepseek_v3.qk_head_dim


class Layer(deepseek_v3.Layer):
    """The block; Llama's order and a bare tensor out, so the base holds."""


class Attention(deepseek_v3.Attention):
    """DeepSeek-V3's latent attention on the shared eager interface, its queries scaled by position before it."""


class Mlp(deepseek_v3.Mlp):
    """The dense gated MLP, on the dense blocks and as the shared experts; the base holds."""


class Moe(deepseek_v2.Moe):
    """DeepSeek-V2's mixture: a grouped softmax router scaled by `routed_scaling_factor` (`gate`), shared experts."""


ENVOYS = {
    Mistral4DecoderLayer: Layer,
    Mistral4Attention: Attention,
    Mistral4MLP: Mlp,
    Mistral4MoE: Moe,
}
