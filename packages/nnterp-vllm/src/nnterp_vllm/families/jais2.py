"""Jais 2 on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)).
Llama's block with biased layer norms and a plain MLP, ``down_proj(act_fn(up_proj(x)))`` (ReLU² by default): the
activation is per block here, so ``mlp_activation`` is served, the same tensor as ``mlp_neurons``. vLLM has no Jais 2 of its own, so the block, attention and MLP are transformers' classes with
vLLM's linear layers and attention layer (``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.jais2.modeling_jais2 import Jais2Attention, Jais2DecoderLayer, Jais2MLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """Jais 2's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """Jais 2's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Jais 2's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Jais2DecoderLayer: Layer, Jais2Attention: Attention, Jais2MLP: Mlp}
