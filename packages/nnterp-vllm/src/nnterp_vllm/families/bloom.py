"""BLOOM on vLLM (``vllm.model_executor.models.bloom``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). The block is called
``forward(position_ids, hidden_states)`` and returns the stream; the residual adds are plain, outside the
sublayers (where transformers' BLOOM adds them inside). The attention adds ALiBi biases in vLLM's kernel, which
the recomputed scores add as ``slope * key_position``. The MLP is plain (``gelu_impl``).
"""

from vllm.model_executor.models.bloom import BloomAttention, BloomBlock, BloomMLP

from nnterp_vllm import components as base

RENAME = {
    "transformer.word_embeddings": "embed_tokens",
    "transformer.h": "layers",
    "transformer.ln_f": "norm",
    "self_attention": "self_attn",
    "self_attention.dense": "self_attention.o_proj",
    "dense_4h_to_h": "down_proj",
    "gelu_impl": "act_fn",
}


class Layer(base.Layer):
    """BLOOM's block: ``forward(position_ids, hidden_states) -> hidden_states``."""

    STREAM = 1


class Attention(base.Attention):
    """BLOOM's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """BLOOM's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {BloomBlock: Layer, BloomAttention: Attention, BloomMLP: Mlp}
