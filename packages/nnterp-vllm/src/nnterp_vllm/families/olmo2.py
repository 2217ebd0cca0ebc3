"""OLMo 2 on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h)).
A post-norm block: no norm feeds either sublayer, so ``attention_norm_output`` and ``mlp_norm_output`` are
unavailable, ``layer_mid`` is what the MLP reads, and the contributions are the post-norms' outputs. vLLM has no
OLMo 2 of its own, so the modules are transformers' classes with vLLM's linear layers and attention layer
(``self_attn.attn``) inside, and the values carry the batch axis. The queries and keys are normed over all heads
before the rotary embedding, so the interior is served normed and rotated.
"""

from transformers.models.olmo2.modeling_olmo2 import Olmo2Attention, Olmo2DecoderLayer, Olmo2MLP

from nnterp.components import POST_NORM_ATTENTION, POST_NORM_MLP, Residual, needs_child, unavailable
from nnterp.components.vllm import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """OLMo 2's post-norm block: the MLP reads the stream after the attention add."""

    attention_norm_output = unavailable(POST_NORM_ATTENTION)
    mlp_norm_output = unavailable(POST_NORM_MLP)

    @base.Batched("mlp.input", description="The residual stream after the attention add", unavailable=needs_child("mlp"))
    def layer_mid(self, rows) -> Residual:
        return rows


class Attention(base.Attention):
    """OLMo 2's attention; what the block adds is its post-norm's output."""

    @base.Batched("../post_attention_layernorm.output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


class Mlp(base.Mlp):
    """OLMo 2's gated MLP; what the block adds is its post-norm's output."""

    @base.Batched("../post_feedforward_layernorm.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Olmo2DecoderLayer: Layer, Olmo2Attention: Attention, Olmo2MLP: Mlp}
