"""Doge (`DogeForCausalLM`): a pre-norm block that gates the stream per channel before each add, with a mixture.

`h = input_residual * x + self_attn(input_layernorm(x));
out = post_attention_residual * h + mlp(post_attention_layernorm(h))`.

`input_residual` and `post_attention_residual` are learned per-channel gates on the
stream, so `layer_mid` is the gated block input plus `attention_output`, and
`layer_output` the gated `layer_mid` plus `mlp_output`. The attention normalizes its
queries and keys per head (`q_norm`, `k_norm`) and adds a dynamic mask, computed from
the values (`dt_proj`, `A`), to the causal mask before the shared attention
interface; `attention_scores` carry it. With `is_moe` the MLP is a cross-domain
mixture (`DogeCDMoE`): a dense gated MLP that every token runs (the shared expert,
`gate_proj`, `up_proj`, `down_proj` of the mixture itself) plus `num_experts`
single-neuron experts chosen by product keys. The router (`router_gate`) scores two
sets of `sqrt(num_experts)` keys, an expert's score is the sum of its two keys'
scores, and the top `num_experts_per_tok` experts take a softmax over their scores
as weights. Expert `e` adds `act(down_embed[e] . x) * weight * up_embed[e]`; the
forward sums the slots in one product, and no tensor scores every expert by its id.
The router's projection is viewed as two halves of the flattened tokens, so it mixes
the logits of different tokens (and of different prompts in one batch).
"""

from transformers.models.doge.modeling_doge import DogeAttention, DogeCDMoE, DogeDecoderLayer, DogeMLP

from nnterp.components import Attention, Layer, Mlp, Moe, TokenEProperty, unavailable
from nnterp.components.layer import Residual
from nnterp.components.moe import ExpertIndices, ExpertWeights, mixture_reason

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: Why Doge's mixture has no `router_logits`.
_PRODUCT_KEYS = (
    "product-key routing: the router scores two sets of sqrt(num_experts) keys, not the experts, and an "
    "expert's score (the sum of its two keys' scores) exists only sorted by score, not indexed by expert"
)
#: Why Doge's mixture has no `expert_outputs`.
_SUMMED_SLOTS = (
    "the single-neuron experts' weighted activations are multiplied with their up embeddings in one product, "
    "which sums the slots: no tensor holds them side by side"
)


class Moe(Moe):
    """Doge's cross-domain mixture: a dense shared MLP plus single-neuron experts chosen by product keys."""

    SHARED = "down_proj.output"

    @property
    def num_experts(self) -> int:
        """The routed experts: one neuron each."""
        return self._module.num_experts

    @property
    def top_k(self) -> int:
        """The experts each token is sent to."""
        return self._module.top_k

    @property
    def intermediate_size(self) -> int:
        """One routed expert's width: a single neuron."""
        return 1

    router_logits = unavailable(_PRODUCT_KEYS)
    expert_outputs = unavailable(_SUMMED_SLOTS)

    @TokenEProperty(
        "source.indices_0.output",
        description="The expert each slot sends the token to, as both expert embeddings look it up",
        unavailable=mixture_reason,
    )
    def expert_indices(self, value) -> ExpertIndices:
        return value

    @TokenEProperty(
        "source.routing_weights_0.output",
        description="The weight of each slot: the softmax over the chosen experts' scores",
        unavailable=mixture_reason,
    )
    def expert_weights(self, value) -> ExpertWeights:
        return value

    @TokenEProperty(
        "source.experts_states_0.output",
        description="The routed experts' weighted sum, without the shared expert",
        unavailable=mixture_reason,
    )
    def routed_output(self, value) -> Residual:
        return value


ENVOYS = {
    DogeDecoderLayer: Layer,
    DogeAttention: Attention,
    DogeMLP: Mlp,
    DogeCDMoE: Moe,
}
