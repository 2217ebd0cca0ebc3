"""OLMo 2 on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h)).
A post-norm block: no norm feeds either sublayer, so ``attention_norm_output`` and ``mlp_norm_output`` are
unavailable, ``layer_mid`` is what the MLP reads, and the contributions are the post-norms' outputs. vLLM has no
OLMo 2 of its own, so the modules are transformers' classes with vLLM's linear layers and attention layer
(``self_attn.attn``) inside, and the values carry the batch axis. The queries and keys are normed over all heads
before the rotary embedding, so the interior is served normed and rotated.
"""

from transformers.models.olmo2.modeling_olmo2 import Olmo2Attention, Olmo2DecoderLayer, Olmo2MLP

from nnterp_vllm.components import post_norm

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(post_norm.BackendPostNormLayer):
    """OLMo 2's post-norm block: the MLP reads the stream after the attention add."""


class Attention(post_norm.BackendPostNormAttention):
    """OLMo 2's attention; what the block adds is its post-norm's output."""


class Mlp(post_norm.BackendPostNormMlp):
    """OLMo 2's gated MLP; what the block adds is its post-norm's output."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Olmo2DecoderLayer: Layer, Olmo2Attention: Attention, Olmo2MLP: Mlp}
