"""OLMo on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), with parameter-free layer
norms. vLLM has no OLMo of its own, so the block, attention and MLP are transformers' classes with vLLM's linear
layers and attention layer (``self_attn.attn``) inside, and the values carry the batch axis. With ``clip_qkv`` the
attention clamps the projections before the rotary embedding; the interior is what reaches vLLM's attention layer.
"""

from transformers.models.olmo.modeling_olmo import OlmoAttention, OlmoDecoderLayer, OlmoMLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """OLMo's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """OLMo's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """OLMo's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {OlmoDecoderLayer: Layer, OlmoAttention: Attention, OlmoMLP: Mlp}
