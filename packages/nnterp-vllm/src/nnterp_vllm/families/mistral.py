"""Mistral on vLLM (``vllm.model_executor.models.mistral``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the
norm that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The MLP is gated
(``gate_up_proj`` into ``SiluAndMul``). The block builds
Llama's MLP, and the attention runs over ``config.sliding_window`` when the config sets one.
"""

from vllm.model_executor.models.llama import LlamaMLP
from vllm.model_executor.models.mistral import MistralAttention, MistralDecoderLayer

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """Mistral's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Mistral's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Mistral's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {MistralDecoderLayer: Layer, MistralAttention: Attention, LlamaMLP: Mlp}
