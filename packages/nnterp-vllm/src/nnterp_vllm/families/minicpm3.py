"""MiniCPM3 on vLLM (``vllm.model_executor.models.minicpm3``).

h = x + residual_scale * self_attn(input_layernorm(x)); out = h + residual_scale * mlp(post_attention_layernorm(h)),
``residual_scale`` being ``scale_depth / sqrt(num_hidden_layers)``. The block is called
``forward(positions, hidden_states, residual)``, ignores ``residual`` and returns ``(stream, None)``, so the stream
is its first output and a skipped block hands the next one no residual. The contributions are the sublayers'
outputs times ``residual_scale``, and a write is divided by it before the block scales it again. The attention is
multi-head latent attention computed out in full: vLLM's attention layer takes as many key/value heads as query
heads, ``qk_nope_head_dim + qk_rope_head_dim`` wide, with the values padded with zeros to that width where
``v_head_dim`` is narrower (the served values and head outputs then carry the padding). vLLM multiplies the
embedding by ``scale_emb`` outside the embedding module and divides the final norm's output by
``hidden_size / dim_model_base`` before the head, which `project_on_vocab` does too.
"""

import math

from vllm.model_executor.models.minicpm import MiniCPMMLP
from vllm.model_executor.models.minicpm3 import MiniCPM3Attention, MiniCPM3DecoderLayer

from nnterp.components import Residual
from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def embedding_scale(model) -> float:
    """vLLM multiplies the embedding module's output by this before block 0."""
    return model.config.scale_emb


def head_divisor(model) -> float:
    """vLLM divides the final norm's output by this before the head."""
    return model.config.hidden_size / model.config.dim_model_base


def _residual_scale(envoy) -> float:
    """The factor the block multiplies `envoy`'s output by before the add."""
    config = envoy.parent._module.config
    return config.scale_depth / math.sqrt(config.num_hidden_layers)


class Layer(base.Layer):
    """MiniCPM3's block: ``forward(positions, hidden_states, residual) -> (stream, None)``."""

    STREAM = 1
    returns_tuple = True

    def skip_with(self, stream):
        """`stream` packed as this block's output, with no residual for the next block to take."""
        return stream[0], None


class Attention(base.Attention):
    """MiniCPM3's latent attention; what the block adds is its output times ``residual_scale``."""

    @base.Flat("output", description="What the attention adds to the residual stream: its output, scaled")
    def attention_output(self, rows) -> Residual:
        return rows * _residual_scale(self)

    @attention_output.postprocess
    def attention_output(self, value):
        return value / _residual_scale(self)


class Mlp(base.Mlp):
    """MiniCPM3's gated MLP; what the block adds is its output times ``residual_scale``."""

    @base.Flat("output", description="What the MLP adds to the residual stream: its output, scaled")
    def mlp_output(self, rows) -> Residual:
        return rows * _residual_scale(self)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return value / _residual_scale(self)


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {MiniCPM3DecoderLayer: Layer, MiniCPM3Attention: Attention, MiniCPMMLP: Mlp}
