"""Qwen3-MoE on vLLM (``vllm.model_executor.models.qwen3_moe``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The queries and keys pass
per-head RMS norms before the rotary embedding. The MLP is a mixture on the blocks ``decoder_sparse_step`` and
``mlp_only_layers`` leave sparse, a gated MLP on the others: ``FusedMoE`` calls ``gate`` for the router's logits,
keeps the top ``num_experts_per_tok`` of their softmax (renormalized where ``norm_topk_prob`` says) and runs and
sums those experts in one kernel.
"""

from vllm.model_executor.models.qwen3_moe import (
    Qwen3MoeAttention,
    Qwen3MoeDecoderLayer,
    Qwen3MoeMLP,
    Qwen3MoeSparseMoeBlock,
)

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """Qwen3-MoE's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Qwen3-MoE's attention; its output is what the block adds, so the base holds."""


class Moe(base.Moe):
    """Qwen3-MoE's mixture: the router's logits at ``gate``, the experts in ``FusedMoE``."""


class Mlp(base.Mlp):
    """The gated MLP of a dense block; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Qwen3MoeDecoderLayer: Layer, Qwen3MoeAttention: Attention, Qwen3MoeSparseMoeBlock: Moe, Qwen3MoeMLP: Mlp}
