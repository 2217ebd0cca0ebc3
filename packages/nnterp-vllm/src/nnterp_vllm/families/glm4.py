"""GLM-4 on vLLM (``vllm.model_executor.models.glm4``; the MLP is Llama's class).

h = x + post_self_attn_layernorm(self_attn(input_layernorm(x)));
out = h + post_mlp_layernorm(mlp(post_attention_layernorm(h))). A sandwich block whose residual adds are fused
into ``input_layernorm`` and ``post_attention_layernorm``, so the block takes and returns the stream as
``(hidden_states, residual)``, the stream between the sublayers enters ``post_attention_layernorm`` as a pair, and
the contributions are the post-norms' outputs. The rotary embedding turns part of each head; the MLP is gated.
"""

from vllm.model_executor.models.glm4 import Glm4Attention, Glm4DecoderLayer, Glm4MLP

from nnterp.components import Residual
from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """GLM-4's sandwich block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """GLM-4's attention; what the block adds is ``post_self_attn_layernorm``'s output."""

    @base.Flat("../post_self_attn_layernorm.output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


class Mlp(base.Mlp):
    """GLM-4's gated MLP; what the block adds is ``post_mlp_layernorm``'s output."""

    @base.Flat("../post_mlp_layernorm.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Glm4DecoderLayer: Layer, Glm4Attention: Attention, Glm4MLP: Mlp}
