"""Granite on vLLM (``vllm.model_executor.models.granite``).

h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h)). vLLM's Granite block is called
``forward(positions, hidden_states)`` and returns the stream itself (no fused residual), so the contributions are
the sublayers' outputs times ``residual_multiplier``, and a write is divided by it before the block scales it
again. The model multiplies the embedding by ``embedding_multiplier`` before block 0 (``token_embeddings`` is the
unscaled lookup, as on transformers), the attention scales by ``attention_multiplier``, and the logits processor
divides by ``logits_scaling``.
"""

from vllm.model_executor.models.granite import GraniteAttention, GraniteDecoderLayer, GraniteMLP

from nnterp_vllm import components as base
from nnterp_vllm.components import scaled

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """Granite's block: ``forward(positions, hidden_states) -> hidden_states``."""

    STREAM = 1


class Attention(scaled.ScaledAttention):
    """Granite's attention; what the block adds is its output times ``residual_multiplier``."""


class Mlp(scaled.ScaledMlp):
    """Granite's gated MLP; what the block adds is its output times ``residual_multiplier``."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GraniteDecoderLayer: Layer, GraniteAttention: Attention, GraniteMLP: Mlp}
