"""HyperCLOVA X on vLLM (``vllm.model_executor.models.hyperclovax``).

h = x + residual_multiplier * post_norm1(self_attn(input_layernorm(x)));
out = h + residual_multiplier * post_norm2(mlp(post_attention_layernorm(h))), the post-norms only where
``use_post_norm`` is set. The block is called ``forward(positions, hidden_states, residual)`` and returns
``(hidden_states, residual)``, the first the whole stream (the residual add is outside the norms, for muP), so it
is a plain `Layer`. The contributions are the sublayers' results, post-normed where the block has the norms, times
``residual_multiplier``. The model multiplies the embedding by ``embedding_multiplier`` before block 0
(``token_embeddings`` is the lookup itself, as on transformers), the attention scales by ``attention_multiplier``
and the logits processor by ``logits_scaling``. The MLP is gated.
"""

from vllm.model_executor.models.hyperclovax import HyperCLOVAXAttention, HyperCLOVAXDecoderLayer, HyperCLOVAXMLP

from nnterp_vllm import components as base
from nnterp_vllm.components import scaled

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """HyperCLOVA X's block: ``forward(positions, hidden_states, residual) -> (stream, residual)``."""

    STREAM = 1
    returns_tuple = True


class Attention(scaled.ScaledAttention):
    """HyperCLOVA X's attention; what the block adds is ``post_norm1``'s output (or its own) times the multiplier."""

    POST_NORM = "post_norm1"


class Mlp(scaled.ScaledMlp):
    """HyperCLOVA X's gated MLP; what the block adds is ``post_norm2``'s output (or its own) times the multiplier."""

    POST_NORM = "post_norm2"


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {HyperCLOVAXDecoderLayer: Layer, HyperCLOVAXAttention: Attention, HyperCLOVAXMLP: Mlp}
