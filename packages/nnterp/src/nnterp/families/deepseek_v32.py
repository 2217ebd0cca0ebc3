"""DeepSeek-V3.2 (`DeepseekV32ForCausalLM`): DeepSeek-V3's block with a sparse latent attention chosen by an indexer.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is DeepSeek-V3's multi-head latent attention (see
`nnterp.components.latent`) with one addition: a lightweight indexer (`indexer`)
scores every earlier token and keeps the best `index_topk` per query; on the eager
and sdpa paths the others are masked out by folding that choice into the attention
mask, so `attention_scores` carry the mask's minimum at the keys the indexer drops
and `attention_probabilities` are zero there. The mixture is DeepSeek-V3's: dense
blocks first (`mlp_layer_types`), then a grouped sigmoid router with a correction
bias (`gate`), grouped experts, and shared experts added after the routed ones;
the block, dense MLP and mixture envoys are DeepSeek-V3's.
"""

from transformers.models.deepseek_v32.modeling_deepseek_v32 import (
    DeepseekV32Attention,
    DeepseekV32DecoderLayer,
    DeepseekV32MLP,
    DeepseekV32MoE,
)

from nnterp.components import LatentAttention
from nnterp.families.deepseek_v3 import RENAME, Layer, Mlp, Moe, head_dim, qk_head_dim

__all__ = ["ENVOYS", "RENAME", "Layer", "Mlp", "Moe", "head_dim", "qk_head_dim"]

ENVOYS = {
    DeepseekV32DecoderLayer: Layer,
    DeepseekV32Attention: LatentAttention,
    DeepseekV32MLP: Mlp,
    DeepseekV32MoE: Moe,
}
