"""Granite with sliding-window attention on vLLM, which runs it as Granite (``vllm.model_executor.models.granite``).

h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h)). vLLM's Granite block is called
``forward(positions, hidden_states)`` and returns the stream itself (no fused residual), so the contributions are
the sublayers' outputs times ``residual_multiplier``, and a write is divided by it before the block scales it
again. The model multiplies the embedding by ``embedding_multiplier`` before block 0 (``token_embeddings`` is the
unscaled lookup, as on transformers), the attention scales by ``attention_multiplier``, and the logits processor
divides by ``logits_scaling``. Blocks whose
``layer_types`` entry is ``sliding_attention`` attend over a window.
"""

from vllm.model_executor.models.granite import GraniteDecoderLayer  # noqa: F401  - vLLM runs the type as Granite

from nnterp_vllm.families.granite import ENVOYS, RENAME, Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]
