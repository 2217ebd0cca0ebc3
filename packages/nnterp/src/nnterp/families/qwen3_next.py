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


ENVOYS = {
    Qwen3NextDecoderLayer: HybridLayer,
    Qwen3NextAttention: Attention,
    Qwen3NextGatedDeltaNet: LinearAttention,
    Qwen3NextMLP: Mlp,
    Qwen3NextSparseMoeBlock: qwen2_moe.Moe,
}
