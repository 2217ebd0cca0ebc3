"""Gemma on vLLM (``vllm.model_executor.models.gemma``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the
norm that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The MLP is gated
(``gate_up_proj`` into ``GeluAndMul``). The norms scale by
``1 + weight``, and vLLM multiplies the embedding by ``sqrt(hidden_size)``
outside the embedding module, which ``token_embeddings`` includes as transformers' embedding module does.
"""

from vllm.model_executor.models.gemma import GemmaAttention, GemmaDecoderLayer, GemmaMLP

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def embedding_scale(model) -> float:
    """vLLM multiplies the embedding module's output by this before block 0."""
    return model.config.hidden_size**0.5


class Layer(base.FusedLayer):
    """Gemma's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Gemma's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Gemma's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GemmaDecoderLayer: Layer, GemmaAttention: Attention, GemmaMLP: Mlp}
