"""Qwen2-MoE on vLLM (``vllm.model_executor.models.qwen2_moe``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The MLP is a mixture on
the blocks ``decoder_sparse_step`` and ``mlp_only_layers`` leave sparse, a gated MLP on the others: ``gate`` gives
the router's logits, and ``FusedMoE`` keeps the top ``num_experts_per_tok`` of their softmax, runs those experts
and, in the same call, the shared expert (its output scaled by the sigmoid of ``shared_expert_gate``), returning
the sum. So the shared expert's contribution is served at its module and the routed sum alone is not.
"""

from vllm.model_executor.models.qwen2_moe import (
    Qwen2MoeAttention,
    Qwen2MoeDecoderLayer,
    Qwen2MoeMLP,
    Qwen2MoeSparseMoeBlock,
)

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """Qwen2-MoE's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Qwen2-MoE's attention; its output is what the block adds, so the base holds."""


class Moe(base.Moe):
    """Qwen2-MoE's mixture: the router's logits at ``gate``, the shared expert inside ``FusedMoE``'s call."""

    ROUTED_KEY = None
    SHARED = "shared_expert"


class Mlp(base.Mlp):
    """A gated MLP (a dense block's, or the shared expert); its output is what the block adds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Qwen2MoeDecoderLayer: Layer, Qwen2MoeAttention: Attention, Qwen2MoeSparseMoeBlock: Moe, Qwen2MoeMLP: Mlp}
