"""Granite with sliding-window attention on vLLM, which runs it as Granite (``vllm.model_executor.models.granite``).

h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h)). vLLM's Granite block is called
``forward(positions, hidden_states)`` and returns the stream itself (no fused residual), so the contributions are
the sublayers' outputs times ``residual_multiplier``, and a write is divided by it before the block scales it
again. The model multiplies the embedding by ``embedding_multiplier`` before block 0 (``token_embeddings`` is the
unscaled lookup, as on transformers), the attention scales by ``attention_multiplier``, and the logits processor
divides by ``logits_scaling``. Blocks whose
``layer_types`` entry is ``sliding_attention`` attend over a window.
"""

from vllm.model_executor.models.granite import GraniteAttention, GraniteDecoderLayer, GraniteMLP

from nnterp.components import Residual
from nnterp.components import vllm as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def _multiplier(envoy) -> float:
    return envoy.parent._module.residual_multiplier


class Layer(base.Layer):
    """Granite's block: ``forward(positions, hidden_states) -> hidden_states``."""

    STREAM = 1


class Attention(base.Attention):
    """Granite's attention; what the block adds is its output times ``residual_multiplier``."""

    @base.Flat("output", description="What the attention adds to the residual stream: its output, scaled")
    def attention_output(self, rows) -> Residual:
        return rows * _multiplier(self)

    @attention_output.postprocess
    def attention_output(self, value):
        return value / _multiplier(self)


class Mlp(base.Mlp):
    """Granite's gated MLP; what the block adds is its output times ``residual_multiplier``."""

    @base.Flat("output", description="What the MLP adds to the residual stream: its output, scaled")
    def mlp_output(self, rows) -> Residual:
        return rows * _multiplier(self)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return value / _multiplier(self)


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GraniteDecoderLayer: Layer, GraniteAttention: Attention, GraniteMLP: Mlp}
