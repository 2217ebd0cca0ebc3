"""GLM-4.5 (MoE) on vLLM (``vllm.model_executor.models.glm4_moe``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The attention turns part
of each head with the rotary embedding and, with ``use_qk_norm``, norms the queries and keys per head first. The
MLP is a gated MLP on the first ``first_k_dense_replace`` blocks, a mixture on the others: ``gate`` gives the
router's logits in float32, and ``FusedMoE`` takes their sigmoid, adds the score correction bias for the choice of
the top ``num_experts_per_tok`` within the best groups, weighs them by ``routed_scaling_factor``, runs those experts
and, in the same call, the shared experts, returning the sum. So the shared experts' contribution is served at
their module and the routed sum alone is not. vLLM never ties the head to the embedding.
"""

from vllm.model_executor.models.glm4_moe import Glm4MoE, Glm4MoeAttention, Glm4MoeDecoderLayer, Glm4MoeMLP

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """GLM-4.5's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """GLM-4.5's attention; its output is what the block adds, so the base holds."""


class Moe(base.Moe):
    """GLM-4.5's mixture: the router's logits at ``gate``, the shared experts inside ``FusedMoE``'s call."""

    ROUTED_KEY = None
    SHARED = "shared_experts"


class Mlp(base.Mlp):
    """A gated MLP (a dense block's, or the shared experts); its output is what the block adds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Glm4MoeDecoderLayer: Layer, Glm4MoeAttention: Attention, Glm4MoE: Moe, Glm4MoeMLP: Mlp}
