"""Granite-MoE with sliding-window attention on vLLM, which runs it as Granite-MoE-Shared (``granitemoeshared``).

h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * (mlp(post_attention_layernorm(h)) + shared_mlp(post_attention_layernorm(h))).
vLLM maps the architecture to its Granite-MoE-Shared model: the mixture (``block_sparse_moe``, renamed ``mlp``)
beside the block's shared MLP, summed inside the block's forward, so ``mlp_output`` is unavailable where the block
has one. Blocks whose ``layer_types`` entry is ``sliding_attention`` attend over the last ``sliding_window``
tokens. The embedding, attention and logits carry Granite's multipliers, as on Granite-MoE-Shared.
"""

from vllm.model_executor.models.granitemoeshared import GraniteMoeSharedDecoderLayer  # noqa: F401  - vLLM's class

from nnterp_vllm.families.granitemoeshared import ENVOYS, RENAME, Attention, Layer, Moe

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Moe"]
