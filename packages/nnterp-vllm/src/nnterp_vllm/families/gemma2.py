"""Gemma 2 on vLLM (``vllm.model_executor.models.gemma2``).

h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h))). The block carries the stream as
``(hidden_states, residual)``, fused into ``input_layernorm`` and ``pre_feedforward_layernorm``, so the
contributions are the post-norms' outputs and the stream between the sublayers enters
``pre_feedforward_layernorm``. vLLM scales the embedding by ``sqrt(hidden_size)`` outside the embedding module,
softcaps the scores in its kernel and the logits in its logits processor; blocks alternate sliding-window and
global attention.
"""

from vllm.model_executor.models.gemma2 import Gemma2Attention, Gemma2DecoderLayer, Gemma2MLP

from nnterp.components import Residual, needs_child
from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def embedding_scale(model) -> float:
    """vLLM multiplies the embedding module's output by this before block 0."""
    return model.config.hidden_size**0.5


class Layer(base.FusedLayer):
    """Gemma 2's sandwich block: the stream between the sublayers enters the MLP's pre-norm."""

    @base.Sum(
        "pre_feedforward_layernorm.inputs",
        description="The residual stream after the attention add",
        unavailable=needs_child("pre_feedforward_layernorm"),
        parts=((0, "x"), (1, "residual")),
    )
    def layer_mid(self, rows) -> Residual:
        return rows

    @base.Flat(
        "pre_feedforward_layernorm.output",
        description="The normed stream entering the MLP",
        unavailable=needs_child("pre_feedforward_layernorm"),
    )
    def mlp_norm_output(self, rows) -> Residual:
        return rows


class Attention(base.Attention):
    """Gemma 2's attention; what the block adds is its post-norm's output."""

    @base.Flat("../post_attention_layernorm.output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


class Mlp(base.Mlp):
    """Gemma 2's gated MLP; what the block adds is its post-norm's output."""

    @base.Flat("../post_feedforward_layernorm.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Gemma2DecoderLayer: Layer, Gemma2Attention: Attention, Gemma2MLP: Mlp}
