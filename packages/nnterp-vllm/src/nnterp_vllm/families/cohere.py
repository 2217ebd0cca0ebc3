"""Cohere (Command-R) on vLLM (``vllm.model_executor.models.commandr``).

out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x)). A parallel block: one bias-free LayerNorm
feeds both sublayers, so ``mlp_norm_output`` is the attention's normed input and ``layer_mid`` is unavailable. The
block is called ``forward(positions, hidden_states, residual)`` and returns ``(hidden_states, residual)``, the
first the whole stream, so it is a plain `Layer`. With ``use_qk_norm`` the queries and keys pass per-head norms
before the rotary embedding; the MLP is gated; the logits processor multiplies by ``logit_scale``.
"""

from vllm.model_executor.models.commandr import CohereAttention, CohereDecoderLayer, CohereMLP

from nnterp_vllm import components as base
from nnterp_vllm.components import parallel

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(parallel.ParallelLayer):
    """Cohere's parallel block: ``forward(positions, hidden_states, residual) -> (stream, residual)``."""

    STREAM = 1
    returns_tuple = True


class Attention(base.Attention):
    """Cohere's attention, sliding or global per block where the config says; its output is what the block adds."""


class Mlp(base.Mlp):
    """Cohere's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {CohereDecoderLayer: Layer, CohereAttention: Attention, CohereMLP: Mlp}
