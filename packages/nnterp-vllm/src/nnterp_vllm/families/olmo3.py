"""OLMo 3 on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h)).
OLMo 2's post-norm block, with ``layer_types`` making some blocks sliding-window ones: no norm feeds either
sublayer, so ``attention_norm_output`` and ``mlp_norm_output`` are unavailable, ``layer_mid`` is what the MLP
reads, and the contributions are the post-norms' outputs. vLLM has no OLMo 3 of its own, so the modules are
transformers' classes with vLLM's linear layers and attention layer (``self_attn.attn``, which holds each block's
window) inside, and the values carry the batch axis.
"""

from transformers.models.olmo3.modeling_olmo3 import Olmo3Attention, Olmo3DecoderLayer, Olmo3MLP

from nnterp_vllm.components import post_norm

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(post_norm.BackendPostNormLayer):
    """OLMo 3's post-norm block: the MLP reads the stream after the attention add."""


class Attention(post_norm.BackendPostNormAttention):
    """OLMo 3's attention, sliding or global per block; what the block adds is its post-norm's output."""


class Mlp(post_norm.BackendPostNormMlp):
    """OLMo 3's gated MLP; what the block adds is its post-norm's output."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Olmo3DecoderLayer: Layer, Olmo3Attention: Attention, Olmo3MLP: Mlp}
