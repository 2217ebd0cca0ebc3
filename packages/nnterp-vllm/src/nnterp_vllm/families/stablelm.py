"""StableLM on vLLM (``vllm.model_executor.models.stablelm``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). vLLM builds this sequential
block only: it ignores ``use_parallel_residual`` and ``qk_layernorm`` (a checkpoint that sets either runs
otherwise than on transformers). The block is called ``forward(positions, hidden_states)`` and returns
``(hidden_states, residual)``, the first the whole stream, so it is a plain `Layer`. The norms are LayerNorms, the
rotary embedding turns part of each head, and the MLP is gated.
"""

from vllm.model_executor.models.stablelm import StablelmAttention, StablelmDecoderLayer, StablelmMLP

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """StableLM's block: ``forward(positions, hidden_states) -> (stream, residual)``."""

    STREAM = 1
    returns_tuple = True


class Attention(base.Attention):
    """StableLM's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """StableLM's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {StablelmDecoderLayer: Layer, StablelmAttention: Attention, StablelmMLP: Mlp}
