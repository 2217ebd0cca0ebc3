"""BitNet on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). Llama's block with a sub-norm
before each output projection: ``attn_sub_norm`` norms the merged heads, so ``attention_premix`` (what ``o_proj``
reads) is the normed heads, not ``attention_head_outputs``; ``ffn_sub_norm`` norms the gated product, so
``mlp_neurons`` is the normed product. The weights are the unquantized checkpoint's. vLLM has no BitNet of its own,
so the modules are transformers' classes with vLLM's linear layers and attention layer (``self_attn.attn``) inside,
and the values carry the batch axis.
"""

from transformers.models.bitnet.modeling_bitnet import BitNetAttention, BitNetDecoderLayer, BitNetMLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """BitNet's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """BitNet's attention; ``attn_sub_norm`` before ``o_proj``, its output what the block adds."""


class Mlp(base.Mlp):
    """BitNet's gated MLP; its ReLU² activation is a module of the block's own, and ``ffn_sub_norm`` norms the product ``down_proj`` sums."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {BitNetDecoderLayer: Layer, BitNetAttention: Attention, BitNetMLP: Mlp}
