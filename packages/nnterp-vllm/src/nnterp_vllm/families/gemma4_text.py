"""Gemma 4, text only, on vLLM (``vllm.model_executor.models.gemma4``).

h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
m = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)));
out = layer_scalar * (m + post_per_layer_input_norm(per_layer_projection(gelu(per_layer_input_gate(m)) * p))),
the per-layer term only where the config sets ``hidden_size_per_layer_input``. The block is called
``forward(positions, hidden_states, residual, per_layer_input=p)``, ignores ``residual`` and returns
``(stream, None)``, so the stream is its first output and a skipped block hands the next one no residual (the
final norm would add it). The contributions are the post-norms' outputs and the stream between the sublayers
enters ``pre_feedforward_layernorm``. Each attention norms its queries, keys and values per head, turns them
with its block kind's rotary embedding (the full-attention blocks' turn only part of each head, and their head
width is the per-layer one) and scales the scores by one. vLLM scales the embedding by ``sqrt(hidden_size)``
outside the embedding module and softcaps the logits in its logits processor.
"""

from vllm.model_executor.models.gemma4 import Gemma4Attention, Gemma4DecoderLayer, Gemma4MLP

from nnterp.components import Residual, needs_child
from nnterp_vllm import components as base
from nnterp_vllm.families import gemma2

RENAME = gemma2.RENAME
embedding_scale = gemma2.embedding_scale


class Layer(base.Layer):
    """Gemma 4's sandwich block: ``forward(positions, hidden_states, residual, per_layer_input) -> (stream, None)``."""

    STREAM = 1
    returns_tuple = True

    def skip_with(self, stream):
        """`stream` packed as this block's output, with no residual for the next block or the final norm to add."""
        return stream[0], None

    @base.Flat(
        "pre_feedforward_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=needs_child("pre_feedforward_layernorm"),
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


class Attention(gemma2.Attention):
    """Gemma 4's attention; what the block adds is its post-norm's output."""


class Mlp(gemma2.Mlp):
    """Gemma 4's gated MLP; what the block adds is its post-norm's output."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Gemma4DecoderLayer: Layer, Gemma4Attention: Attention, Gemma4MLP: Mlp}
