"""Hunyuan dense on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)).
Llama's block with per-head RMS norms on the queries and keys after the rotary embedding; the interior is served
normed, as vLLM's attention layer takes it. vLLM has no Hunyuan dense of its own, so the block, attention and MLP are transformers' classes with
vLLM's linear layers and attention layer (``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.hunyuan_v1_dense.modeling_hunyuan_v1_dense import (
    HunYuanDenseV1Attention,
    HunYuanDenseV1DecoderLayer,
    HunYuanDenseV1MLP,
)

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """Hunyuan dense's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """Hunyuan dense's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Hunyuan dense's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {HunYuanDenseV1DecoderLayer: Layer, HunYuanDenseV1Attention: Attention, HunYuanDenseV1MLP: Mlp}
