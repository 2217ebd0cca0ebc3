"""SmolLM3 on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)).
Llama's block, with rotary embeddings left out of some blocks (``no_rope_layers``). vLLM has no SmolLM3 of its
own, so the block, attention and MLP are transformers' classes with vLLM's linear layers and attention layer
(``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.smollm3.modeling_smollm3 import SmolLM3Attention, SmolLM3DecoderLayer, SmolLM3MLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """SmolLM3's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """SmolLM3's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """SmolLM3's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {SmolLM3DecoderLayer: Layer, SmolLM3Attention: Attention, SmolLM3MLP: Mlp}
