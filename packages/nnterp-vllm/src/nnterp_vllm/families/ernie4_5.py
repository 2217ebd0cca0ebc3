"""ERNIE 4.5 (dense) on vLLM, which runs it as Llama (``vllm.model_executor.models.ernie45``, Llama's classes).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the
norm that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The rotary
embedding turns interleaved pairs of channels; the MLP is gated. vLLM builds the projections without biases, so a
checkpoint that sets ``use_bias`` runs without them on this engine.
"""

from vllm.model_executor.models.llama import LlamaDecoderLayer  # noqa: F401  - vLLM runs the type as Llama

from nnterp_vllm.families.llama import ENVOYS, RENAME, Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]
