"""Lara-mini (`LaraMiniForCausalLM`): a hybrid of gated DeltaNet, sliding-window and full attention blocks, all mixtures.

`config.layer_types` gives each block `linear_attention`, a gated DeltaNet mixer
(`linear_attn`, `LinearAttention`), or `sliding_attention` / `full_attention`, Qwen3's
attention (`self_attn`) with per-head query/key norms; only the sliding blocks get
the rotary embedding, the full attention blocks run without positions. Llama's
order follows:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. Every block's `mlp` is a
mixture: a float32 softmax router keeping the top `num_experts_per_tok`
(renormalized when `norm_topk_prob` is set), grouped experts, and a shared expert
added in full, without a gate. The mixer's state per token needs
`nnterp.route_kernels(model.family, "torch")` before the first trace.
"""

from transformers.models.lara_mini.modeling_lara_mini import (
    LaraMiniAttention,
    LaraMiniDecoderLayer,
    LaraMiniGatedDeltaNet,
    LaraMiniMLP,
    LaraMiniSparseMoeBlock,
)

from nnterp.components import Attention, HybridLayer, LinearAttention, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Lara-mini's mixture: a softmax router (`gate`), grouped experts, a shared expert added without a gate."""

    SCORING = "softmax"
    ROUTER = "gate"
    SHARED = "shared_expert.output"


ENVOYS = {
    LaraMiniDecoderLayer: HybridLayer,
    LaraMiniAttention: Attention,
    LaraMiniGatedDeltaNet: LinearAttention,
    LaraMiniMLP: Mlp,
    LaraMiniSparseMoeBlock: Moe,
}
