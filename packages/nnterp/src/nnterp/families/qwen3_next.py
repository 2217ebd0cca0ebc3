"""Qwen3-Next (`Qwen3NextForCausalLM`): Qwen3.5's hybrid of gated DeltaNet and gated-query attention, with mixtures.

`config.layer_types` gives each block either `linear_attn`, a gated DeltaNet mixer
(`LinearAttention`), or `self_attn`, softmax attention whose query projection
carries a sigmoid gate applied to the heads before `o_proj`. Llama's order follows:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. The `mlp` is Qwen2-MoE's
mixture (a softmax router, grouped experts, a sigmoid-gated shared expert) on the
`decoder_sparse_step` schedule and a dense MLP on `mlp_only_layers`. The norms
scale by `1 + weight`.
"""

from transformers.models.qwen3_next.modeling_qwen3_next import (
    Qwen3NextAttention,
    Qwen3NextDecoderLayer,
    Qwen3NextGatedDeltaNet,
    Qwen3NextMLP,
    Qwen3NextSparseMoeBlock,
)

from nnterp.components import Attention, HybridLayer, LinearAttention, Mlp
from nnterp.families import qwen2_moe

RENAME = qwen2_moe.RENAME


class Layer(HybridLayer):
    """Qwen3-Next's block: one mixer, then the MLP, each added to the stream as it is; the base holds."""


class Attention(Attention):
    """Qwen3-Next's attention; the shared eager interface, the gate applied after it, so the base holds."""


class LinearAttention(LinearAttention):
    """Qwen3-Next's gated DeltaNet; transformers' two delta-rule kernels, so the base holds."""


class Mlp(Mlp):
    """Qwen3-Next's dense gated MLP, on the dense blocks and as the shared expert; the base holds."""


class Moe(qwen2_moe.Moe):
    """Qwen3-Next's mixture; Qwen2-MoE's router, experts and gated shared expert, so that class holds."""


ENVOYS = {
    Qwen3NextDecoderLayer: Layer,
    Qwen3NextAttention: Attention,
    Qwen3NextGatedDeltaNet: LinearAttention,
    Qwen3NextMLP: Mlp,
    Qwen3NextSparseMoeBlock: Moe,
}
