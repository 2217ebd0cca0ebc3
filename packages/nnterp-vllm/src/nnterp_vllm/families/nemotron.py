"""Nemotron on vLLM (``vllm.model_executor.models.nemotron``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the
norm that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The norms are
layer norms scaled by ``1 + weight``, the rotary embedding turns part of each head, and the MLP is plain
(``up_proj``, a squared ReLU, ``down_proj``), so ``mlp_activation`` and ``mlp_neurons`` are both the input of
the down projection.
"""

from vllm.model_executor.models.nemotron import NemotronAttention, NemotronDecoderLayer, NemotronMLP

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """Nemotron's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Nemotron's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Nemotron's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {NemotronDecoderLayer: Layer, NemotronAttention: Attention, NemotronMLP: Mlp}
