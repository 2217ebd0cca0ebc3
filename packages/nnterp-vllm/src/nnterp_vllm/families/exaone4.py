"""EXAONE 4 on vLLM (``vllm.model_executor.models.exaone4``).

h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h)). A post-norm block:
no norm feeds either sublayer, so ``attention_norm_output`` and ``mlp_norm_output`` are unavailable, ``layer_mid``
is what the MLP reads, and the contributions are the post-norms' outputs. The block is called
``forward(positions, hidden_states, residual)`` and returns ``(hidden_states, residual)``, the first the whole
stream, so it is a plain `Layer`. The queries and keys pass per-head RMS norms before the rotary embedding;
``layer_types`` makes some blocks sliding-window ones. The MLP is gated.
"""

from vllm.model_executor.models.exaone4 import Exaone4Attention, Exaone4DecoderLayer, Exaone4GatedMLP

from nnterp_vllm.components import post_norm

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(post_norm.PostNormLayer):
    """EXAONE 4's post-norm block: ``forward(positions, hidden_states, residual) -> (stream, residual)``."""

    STREAM = 1
    returns_tuple = True


class Attention(post_norm.PostNormAttention):
    """EXAONE 4's attention; what the block adds is its post-norm's output."""


class Mlp(post_norm.PostNormMlp):
    """EXAONE 4's gated MLP; what the block adds is its post-norm's output."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Exaone4DecoderLayer: Layer, Exaone4Attention: Attention, Exaone4GatedMLP: Mlp}
