"""FlexOlmo (`FlexOlmoForCausalLM`): OLMo 2's post-norm block with a mixture of experts in place of the MLP.

`h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h))`.

No norm feeds either sublayer, so `attention_norm_output` and `mlp_norm_output` are
unavailable, and the contributions are the post-norms' outputs: `mlp_output` is the
normed mixture output, while the mixture's own values (`routed_output`, ...) are
read before the norm. The attention norms its queries and keys over all heads at
once before the rotary embedding. The router (`gate`) takes a softmax over every
expert and keeps the top `top_k`, renormalized when `norm_topk_prob` is set; there
is no shared expert.
"""

from transformers.models.flex_olmo.modeling_flex_olmo import (
    FlexOlmoAttention,
    FlexOlmoDecoderLayer,
    FlexOlmoSparseMoeBlock,
)

from nnterp.components import Moe, PostNormLayer, SandwichAttention, normed_contribution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """FlexOlmo's mixture: a softmax router (`gate`), grouped experts, the contribution post-normed."""

    SCORING = "softmax"
    ROUTER = "gate"
    mlp_output = normed_contribution("post_feedforward_layernorm", "mlp")


ENVOYS = {FlexOlmoDecoderLayer: PostNormLayer, FlexOlmoAttention: SandwichAttention, FlexOlmoSparseMoeBlock: Moe}
