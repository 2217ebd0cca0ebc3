"""StarCoder2 on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)).
Llama's block with layer norms and a plain MLP (``c_fc``, the activation, ``c_proj``). vLLM has no StarCoder2 of
its own, so the block, attention and MLP are transformers' classes with vLLM's linear layers and attention layer
(``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.starcoder2.modeling_starcoder2 import (
    Starcoder2Attention,
    Starcoder2DecoderLayer,
    Starcoder2MLP,
)

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "mlp.c_proj": "mlp.down_proj",
    "act": "act_fn",
}


class Layer(base.Layer):
    """StarCoder2's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """StarCoder2's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """StarCoder2's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Starcoder2DecoderLayer: Layer, Starcoder2Attention: Attention, Starcoder2MLP: Mlp}
