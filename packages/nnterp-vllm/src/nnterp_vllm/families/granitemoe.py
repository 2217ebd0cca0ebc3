"""Granite-MoE on vLLM (``vllm.model_executor.models.granitemoe``).

h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h)). Granite's block with a mixture
(``block_sparse_moe``, renamed ``mlp``): called ``forward(positions, hidden_states)``, it returns the stream, and
the contributions are the sublayers' results times ``residual_multiplier``. ``gate`` gives the router's logits and
``FusedMoE`` keeps the top ``num_experts_per_tok`` of their softmax and runs and sums those experts in one kernel.
The model multiplies the embedding by ``embedding_multiplier`` before block 0, the attention scales by
``attention_multiplier`` and the logits processor divides by ``logits_scaling``.
"""

from vllm.model_executor.models.granitemoe import GraniteMoeAttention, GraniteMoeDecoderLayer, GraniteMoeMoE

from nnterp_vllm import components as base
from nnterp_vllm.components import scaled

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "block_sparse_moe": "mlp",
}


class Layer(base.Layer):
    """Granite-MoE's block: ``forward(positions, hidden_states) -> hidden_states``."""

    STREAM = 1


class Attention(scaled.ScaledAttention):
    """Granite-MoE's attention; what the block adds is its output times ``residual_multiplier``."""


class Mlp(scaled.ScaledMoe):
    """Granite-MoE's mixture; what the block adds is its output times ``residual_multiplier``."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GraniteMoeDecoderLayer: Layer, GraniteMoeAttention: Attention, GraniteMoeMoE: Mlp}
