"""JetMoE (`JetMoeForCausalLM`): a pre-norm block whose attention and MLP are both mixtures of experts.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention (`self_attention`, a mixture of attention heads) routes each token to
`num_experts_per_tok` query experts: each projects `num_key_value_heads` query heads
of `kv_channels`, so a token has `top_k * num_key_value_heads` query heads. The keys
and values come from one shared `kv_proj` and are repeated over the chosen experts
before the shared attention interface, so `attention_keys` and `attention_values`
are as wide as the queries. The head outputs of each chosen expert are projected by
that expert's output projection and summed with the routing weights, plus a bias;
`attention_premix` is the head outputs as those projections receive them, grouped
by slot. The attention's routing lives in its own `experts.router` and is not served
as values.

The MLP (`JetMoeMoE`) routes with a top-k softmax over the chosen logits (`router`),
runs its experts one after another on the tokens sorted by expert, scales each row
by its weight, adds the rows back per token (`routed_output`) and adds a bias:
`mlp_output` is the routed sum plus that bias, and there is no shared expert.
"""

from transformers.models.jetmoe.modeling_jetmoe import JetMoeAttention, JetMoeDecoderLayer, JetMoeMoE

from nnterp.components import (
    NO_SHARED,
    Attention,
    EProperty,
    HeadOutputs,
    Layer,
    Moe,
    TokenEProperty,
    always,
    unavailable,
)
from nnterp.components.layer import Residual
from nnterp.components.moe import ExpertIndices, ExpertWeights, mixture_reason

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "self_attention": "self_attn",
}

#: Why JetMoE's mixture has no `expert_outputs`.
_SORTED_BY_EXPERT = (
    "the experts run on the token rows sorted by expert and scale them there: the weighted slots exist in "
    "that order only, not per token and slot"
)


class Attention(Attention):
    """JetMoE's mixture of attention heads: routed query experts, a shared key/value projection, expert outputs."""

    @EProperty(
        "source.self_experts_reduce_0.input",
        unavailable=always,
        description="Every head's output side by side, as the chosen experts' output projections take them",
    )
    def attention_premix(self, value) -> HeadOutputs:
        # `[batch, seq, top_k, heads_per_expert * head_dim]`: the slots' heads in order are the query heads.
        return value.flatten(-2).unflatten(-1, (self.num_heads, -1))

    @attention_premix.postprocess
    def attention_premix(self, value):
        return value.flatten(-2).unflatten(-1, (self._module.top_k, -1))


class Moe(Moe):
    """JetMoE's mixture: a top-k softmax router (`router`), experts run on the token rows sorted by expert, a bias."""

    LOGITS = "self_layer_0"
    EXPERTS = "input_linear"

    @property
    def top_k(self) -> int:
        """The slots per token."""
        return self.router._module.top_k

    @property
    def intermediate_size(self) -> int:
        """One routed expert's width."""
        return self._module.hidden_size

    @TokenEProperty(
        "router.source.logits_topk_0.output",
        select=1,
        description="The expert each slot sends the token to, as the router chooses it",
        unavailable=mixture_reason,
    )
    def expert_indices(self, value) -> ExpertIndices:
        return value

    @TokenEProperty(
        "router.source.top_k_gates_0.output",
        description="The weight of each slot: the softmax over the chosen logits",
        unavailable=mixture_reason,
    )
    def expert_weights(self, value) -> ExpertWeights:
        return value

    expert_outputs = unavailable(_SORTED_BY_EXPERT)

    @TokenEProperty(
        "source.layer_output_1.output",
        description="The routed experts' weighted sum, before the mixture's bias",
        unavailable=mixture_reason,
    )
    def routed_output(self, value) -> Residual:
        return value

    shared_expert_output = unavailable(NO_SHARED)


ENVOYS = {
    JetMoeDecoderLayer: Layer,
    JetMoeAttention: Attention,
    JetMoeMoE: Moe,
}
