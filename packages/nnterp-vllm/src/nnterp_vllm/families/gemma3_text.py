"""Gemma 3 (text) on vLLM (``vllm.model_executor.models.gemma3``).

h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h))). Gemma 2's sandwich block in classes of its
own: the stream is carried as ``(hidden_states, residual)``, fused into ``input_layernorm`` and
``pre_feedforward_layernorm``, so the contributions are the post-norms' outputs and the stream between the
sublayers enters ``pre_feedforward_layernorm``. vLLM scales the embedding by ``sqrt(hidden_size)`` outside the
embedding module. The queries and keys pass per-head RMS norms before the rotary embedding, the scores are scaled
by ``query_pre_attn_scalar``, and ``layer_types`` makes some blocks sliding-window ones with a rotary base of their
own.
"""

from vllm.model_executor.models.gemma3 import Gemma3Attention, Gemma3DecoderLayer, Gemma3MLP

from nnterp_vllm.families import gemma2

RENAME = gemma2.RENAME
embedding_scale = gemma2.embedding_scale


class Layer(gemma2.Layer):
    """Gemma 3's sandwich block, Gemma 2's: the stream between the sublayers enters the MLP's pre-norm."""


class Attention(gemma2.Attention):
    """Gemma 3's attention; what the block adds is its post-norm's output."""


class Mlp(gemma2.Mlp):
    """Gemma 3's gated MLP; what the block adds is its post-norm's output."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Gemma3DecoderLayer: Layer, Gemma3Attention: Attention, Gemma3MLP: Mlp}
