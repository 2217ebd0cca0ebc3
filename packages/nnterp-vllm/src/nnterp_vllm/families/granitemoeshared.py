"""Granite-MoE-Shared on vLLM (``vllm.model_executor.models.granitemoeshared``).

h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * (mlp(post_attention_layernorm(h)) + shared_mlp(post_attention_layernorm(h))).
Granite-MoE's block, called ``forward(positions, hidden_states)`` and returning the stream, with the block's own
gated MLP (``shared_mlp``) beside the mixture (``block_sparse_moe``, renamed ``mlp``). ``gate`` gives the router's
logits and ``FusedMoE`` keeps the top ``num_experts_per_tok`` of their softmax and runs and sums those experts in
one kernel, so the mixture's output is the routed sum and ``shared_mlp``'s the shared expert's. The block adds the
two inside its forward, so no module returns their sum and ``mlp_output`` is unavailable where the block has a
shared MLP (a zero ``shared_intermediate_size`` leaves it out, and the mixture's output, scaled, is the whole
contribution). The model multiplies the embedding by ``embedding_multiplier`` before block 0, the attention
scales by ``attention_multiplier`` and the logits processor divides by ``logits_scaling``.
"""

from vllm.model_executor.models.granitemoe import GraniteMoeAttention, GraniteMoeMoE
from vllm.model_executor.models.granitemoeshared import GraniteMoeSharedDecoderLayer

from nnterp.components import Residual
from nnterp_vllm import components as base
from nnterp_vllm.components import scaled

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "block_sparse_moe": "mlp",
}

#: Why the contribution is not served beside a shared MLP.
_INLINE_SUM = (
    "vLLM's Granite-MoE-Shared block adds the mixture's and the shared MLP's outputs inside its forward and no "
    "module returns the sum; read routed_output and shared_expert_output, or layer_output"
)


def _has_sibling(envoy) -> bool:
    return getattr(envoy.parent._module, "shared_mlp", None) is not None


def _summed_inline(envoy) -> str | None:
    return _INLINE_SUM if _has_sibling(envoy) else None


def _no_sibling(envoy) -> str | None:
    return None if _has_sibling(envoy) else "this block has no shared MLP (shared_intermediate_size is 0)"


class Layer(base.Layer):
    """Granite-MoE-Shared's block: ``forward(positions, hidden_states) -> hidden_states``."""

    STREAM = 1


class Attention(scaled.ScaledAttention):
    """Granite-MoE-Shared's attention; what the block adds is its output times ``residual_multiplier``."""


class Moe(scaled.ScaledMoe):
    """Granite-MoE-Shared's mixture: the router's logits at ``gate``, the experts in ``FusedMoE``, ``shared_mlp`` beside."""

    @base.Flat(
        "output",
        description="What the MLP adds to the residual stream: its result, scaled",
        unavailable=_summed_inline,
    )
    def mlp_output(self, rows) -> Residual:
        return rows * scaled.residual_multiplier(self)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return value / scaled.residual_multiplier(self)

    @base.Flat(
        "../shared_mlp.output",
        description="The shared MLP's output, before the block's multiplier",
        unavailable=_no_sibling,
    )
    def shared_expert_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GraniteMoeSharedDecoderLayer: Layer, GraniteMoeAttention: Attention, GraniteMoeMoE: Moe}
