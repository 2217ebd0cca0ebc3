"""RecurrentGemma (`RecurrentGemmaForCausalLM`): Griffin's hybrid of RG-LRU recurrent blocks and local attention.

`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`, the
norms native `temporal_pre_norm` and `channel_pre_norm` (scaling by `1 + weight`), the
MLP native `mlp_block` (gated, a tanh-approximated GELU). `config.layers_block_type`
gives each block its mixer, native `temporal_block`: an RG-LRU recurrent block, served
as `linear_attn` (an `RgLru`, read at its unit's scan), or a sliding-window attention
with partial rotary embeddings, served as `self_attn` on the shared eager interface.
The model multiplies the embedding output by `sqrt(hidden_size)` (rounded to
bfloat16) before block 0, so block 0's `layer_input` is the scaled embedding, and
soft-caps the logits with `tanh(logits / cap) * cap` after the head.
"""

from transformers.models.recurrent_gemma.modeling_recurrent_gemma import (
    RecurrentGemmaAttention,
    RecurrentGemmaDecoderLayer,
    RecurrentGemmaMlp,
    RecurrentGemmaRecurrentBlock,
)

from nnterp.components import Attention, HybridLayer, LogitLens, Mlp
from nnterp.components.rg_lru import RgLru

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_norm": "norm",
    RecurrentGemmaRecurrentBlock: "linear_attn",
    RecurrentGemmaAttention: "self_attn",
    "temporal_pre_norm": "input_layernorm",
    "channel_pre_norm": "post_attention_layernorm",
    "mlp_block": "mlp",
}


project_on_vocab = LogitLens(softcap="logits_soft_cap")


ENVOYS = {
    RecurrentGemmaDecoderLayer: HybridLayer,
    RecurrentGemmaAttention: Attention,
    RecurrentGemmaRecurrentBlock: RgLru,
    RecurrentGemmaMlp: Mlp,
}
