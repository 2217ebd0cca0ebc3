"""Cohere 2 (Command R7B, Command A) on vLLM, which runs it with Cohere's classes (``vllm.model_executor.models.commandr``).

out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x)). Cohere's parallel block, with ``layer_types``
making some blocks sliding-window ones: their rotary embedding turns the queries and keys, the global blocks run
without one. The window is the layer's, one wider than the config's (vLLM counts the query itself).
"""

from vllm.model_executor.models.commandr import CohereDecoderLayer  # noqa: F401  - vLLM runs the type as Cohere

from nnterp_vllm.families.cohere import ENVOYS, RENAME, Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]
