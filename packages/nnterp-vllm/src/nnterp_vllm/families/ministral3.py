"""Ministral 3 on vLLM, which runs it as Mistral (``vllm.model_executor.models.mistral``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The attention multiplies
the rotated queries by Llama 4's position-dependent scale before vLLM's attention layer, so the served queries are
the scaled ones, as on transformers. vLLM takes that scale from the config's ``llama_4_scaling`` entry
(``original_max_position_embeddings`` and ``beta``, Mistral's own format) and not from ``rope_parameters``, where
transformers keeps it as ``llama_4_scaling_beta``: a config that carries it only there runs on vLLM without the
scale.
"""

from vllm.model_executor.models.mistral import MistralDecoderLayer  # noqa: F401  - vLLM runs the type as Mistral

from nnterp_vllm.families.mistral import ENVOYS, RENAME, Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]
