"""GPT-SW3 on vLLM, which runs it as GPT-2 (``vllm.model_executor.models.gpt2``, GPT-2's classes).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), with GPT-2's names renamed.
The block is called with the stream alone and returns it. The MLP is plain: ``mlp_activation`` and
``mlp_neurons`` are both the input of the down projection (``c_proj``). vLLM's GPT-2 refuses a checkpoint that sets
``scale_attn_by_inverse_layer_idx``.
"""

from vllm.model_executor.models.gpt2 import GPT2Block  # noqa: F401  - vLLM runs the type as GPT-2

from nnterp_vllm.families.gpt2 import ENVOYS, RENAME, Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]
