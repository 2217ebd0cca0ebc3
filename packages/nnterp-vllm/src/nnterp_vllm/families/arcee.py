"""Arcee (AFM) on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)).
Llama's block with a plain MLP (``up_proj``, a squared ReLU, ``down_proj``). vLLM has no Arcee of its own, so the
block, attention and MLP are transformers' classes with vLLM's linear layers and attention layer
(``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.arcee.modeling_arcee import ArceeAttention, ArceeDecoderLayer, ArceeMLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """Arcee's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """Arcee's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Arcee's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {ArceeDecoderLayer: Layer, ArceeAttention: Attention, ArceeMLP: Mlp}
