"""Mixtral on vLLM (``vllm.model_executor.models.mixtral``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The MLP is a mixture
(``block_sparse_moe``, renamed ``mlp``): ``gate`` gives the router's logits, which ``FusedMoE`` turns into a
softmax over every expert, keeps the top ``num_experts_per_tok`` renormalized, and runs and sums those experts in
one kernel. There is no shared expert.
"""

from vllm.model_executor.models.mixtral import MixtralAttention, MixtralDecoderLayer, MixtralMoE

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "block_sparse_moe": "mlp",
}


class Layer(base.FusedLayer):
    """Mixtral's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Mixtral's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Moe):
    """Mixtral's mixture: the router's logits at ``gate``, the experts in ``FusedMoE``."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {MixtralDecoderLayer: Layer, MixtralAttention: Attention, MixtralMoE: Mlp}
