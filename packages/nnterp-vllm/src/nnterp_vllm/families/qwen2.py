"""Qwen2 and Qwen2.5 on vLLM (``vllm.model_executor.models.qwen2``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the
norm that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The MLP is gated
(``gate_up_proj`` into ``SiluAndMul``).
"""

from vllm.model_executor.models.qwen2 import Qwen2Attention, Qwen2DecoderLayer, Qwen2MLP

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """Qwen2's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Qwen2's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Qwen2's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Qwen2DecoderLayer: Layer, Qwen2Attention: Attention, Qwen2MLP: Mlp}
