"""Qwen3.5-MoE (`Qwen3_5MoeForCausalLM`): Qwen3.5's hybrid of gated DeltaNet and gated-query attention, with mixtures.

`config.layer_types` gives each block either `linear_attn`, a gated DeltaNet mixer
(`LinearAttention`), or `self_attn`, softmax attention whose query projection is
twice as wide and carries a sigmoid gate applied to the heads before `o_proj`.
Llama's order follows:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. Every block's `mlp` is a
mixture: a softmax top-k router with renormalized weights, grouped experts and a
sigmoid-gated shared expert, as Qwen2-MoE's. The norms scale by `1 + weight`.
The mixer's state per token needs `nnterp.route_kernels(model.family, "torch")`
before the first trace.

The Qwen3.5-MoE wrapper (`qwen3_5_moe`) is served by `nnterp.families.qwen3_5_moe`.
"""

from transformers.models.qwen3_5_moe.modeling_qwen3_5_moe import (
    Qwen3_5MoeAttention,
    Qwen3_5MoeDecoderLayer,
    Qwen3_5MoeGatedDeltaNet,
    Qwen3_5MoeMLP,
    Qwen3_5MoeSparseMoeBlock,
)

from nnterp.components import Attention, HybridLayer, LinearAttention, Mlp
from nnterp.families import qwen2_moe

RENAME = dict(qwen2_moe.RENAME)


ENVOYS = {
    Qwen3_5MoeDecoderLayer: HybridLayer,
    Qwen3_5MoeAttention: Attention,
    Qwen3_5MoeGatedDeltaNet: LinearAttention,
    Qwen3_5MoeMLP: Mlp,
    Qwen3_5MoeSparseMoeBlock: qwen2_moe.Moe,
}
