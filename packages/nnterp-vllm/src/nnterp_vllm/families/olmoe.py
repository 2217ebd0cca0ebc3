"""OLMoE on vLLM (``vllm.model_executor.models.olmoe``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The queries and keys are
normed over all heads before the rotary embedding. The MLP is a mixture: ``gate`` gives the router's logits,
``FusedMoE`` keeps the top ``num_experts_per_tok`` of their softmax and runs and sums those experts in one kernel.
There is no shared expert. vLLM never renormalizes the chosen weights and never ties the head to the embedding,
whatever ``norm_topk_prob`` and ``tie_word_embeddings`` say (the published checkpoints set neither).
"""

from vllm.model_executor.models.olmoe import OlmoeAttention, OlmoeDecoderLayer, OlmoeMoE

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """OLMoE's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """OLMoE's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Moe):
    """OLMoE's mixture: the router's logits at ``gate``, the experts in ``FusedMoE``."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {OlmoeDecoderLayer: Layer, OlmoeAttention: Attention, OlmoeMoE: Mlp}
