"""Cohere 2 MoE on vLLM (``vllm.model_executor.models.cohere2_moe``).

out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x)). Cohere's parallel block: one norm (a bias-free
LayerNorm, or an RMSNorm where ``rms_norm_eps`` is set, both returning a tuple led by the normed stream) feeds both
sublayers, so ``layer_mid`` is unavailable; the block is called ``forward(positions, hidden_states, residual)`` and
returns ``(stream, residual)``. ``layer_types`` makes some blocks sliding-window ones. ``mlp_layer_types`` gives a
block a gated MLP or a mixture: ``gate`` gives the router's logits, ``FusedMoE`` keeps the top
``num_experts_per_tok`` (softmax, renormalized; with ``expert_selection_fn="sigmoid"`` a routing function of its
own), runs those experts and, in the same call, the shared experts, returning the sum, which the mixture halves
under ``shared_expert_combination_strategy="average"``. So the shared experts' contribution is served at their
module and the routed sum alone is not. The logits processor multiplies by ``logit_scale``.
"""

from vllm.model_executor.models.cohere2_moe import (
    Cohere2Moe,
    Cohere2MoeAttention,
    Cohere2MoeDecoderLayer,
    Cohere2MoeMLP,
)

from nnterp_vllm import components as base
from nnterp_vllm.components import parallel

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(parallel.ParallelLayer):
    """Cohere 2 MoE's parallel block: ``forward(positions, hidden_states, residual) -> (stream, residual)``."""

    STREAM = 1
    returns_tuple = True


class Attention(base.Attention):
    """Cohere 2 MoE's attention, sliding or global per block; its output is what the block adds."""


class Moe(base.Moe):
    """Cohere 2 MoE's mixture: the router's logits at ``gate``, the shared experts inside ``FusedMoE``'s call."""

    ROUTED_KEY = None
    SHARED = "shared_experts"


class Mlp(base.Mlp):
    """A gated MLP (a dense block's, or the shared experts); its output is what the block adds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Cohere2MoeDecoderLayer: Layer, Cohere2MoeAttention: Attention, Cohere2Moe: Moe, Cohere2MoeMLP: Mlp}
