"""Qwen3 on vLLM (``vllm.model_executor.models.qwen3``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the
norm that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The MLP is gated
(``gate_up_proj`` into ``SiluAndMul``). ``q_norm`` and ``k_norm``
norm each head before the rotary embedding, so the queries and keys are served normed and rotated.
"""

from vllm.model_executor.models.qwen3 import Qwen3Attention, Qwen3DecoderLayer, Qwen3MLP

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """Qwen3's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Qwen3's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Qwen3's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Qwen3DecoderLayer: Layer, Qwen3Attention: Attention, Qwen3MLP: Mlp}
