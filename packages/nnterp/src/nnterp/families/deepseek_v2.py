"""DeepSeek-V2 (`DeepseekV2ForCausalLM`): latent attention, and a softmax-routed mixture after the first dense blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is multi-head latent attention, read where its queries, keys and
values enter the shared attention interface (see `nnterp.components.latent`); its
rotary part is applied as a complex product. Its block, attention and dense MLP
are built as DeepSeek-V3's, on the same components. The first `first_k_dense_replace`
blocks carry a dense MLP, the others a mixture, so the mixture values are reported
per block. The router (`gate`) scores its logits with a softmax over every expert;
with `topk_method="group_limited_greedy"` it keeps the experts of the best
`topk_group` of `n_group` groups only. `expert_weights` are the chosen softmax
scores, not renormalized, times `routed_scaling_factor`. The shared experts run on
the mixture's input after the routed experts, and the module returns the sum.
"""

from transformers.models.deepseek_v2.modeling_deepseek_v2 import (
    DeepseekV2Attention,
    DeepseekV2DecoderLayer,
    DeepseekV2MLP,
    DeepseekV2Moe,
)

from nnterp.components import LatentAttention, Layer, Mlp, Moe, latent_head_dim, latent_qk_head_dim

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """DeepSeek-V2's mixture: a softmax router scaled by `routed_scaling_factor` (`gate`), grouped experts, shared experts."""

    SCORING = "softmax"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys' (`config.head_dim` is the rotary width).
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim

ENVOYS = {
    DeepseekV2DecoderLayer: Layer,
    DeepseekV2Attention: LatentAttention,
    DeepseekV2MLP: Mlp,
    DeepseekV2Moe: Moe,
}
