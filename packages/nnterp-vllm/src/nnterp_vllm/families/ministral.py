"""Ministral on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)).
Mistral's block; ``layer_types`` makes some blocks sliding-window ones, whose window vLLM's attention layer holds
and the recomputed pattern masks. vLLM has no Ministral of its own, so the block, attention and MLP are transformers' classes with
vLLM's linear layers and attention layer (``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.ministral.modeling_ministral import MinistralAttention, MinistralDecoderLayer, MinistralMLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """Ministral's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """Ministral's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Ministral's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {MinistralDecoderLayer: Layer, MinistralAttention: Attention, MinistralMLP: Mlp}
