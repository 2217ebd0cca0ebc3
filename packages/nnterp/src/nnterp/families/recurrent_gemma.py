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

import torch
from transformers.models.recurrent_gemma.modeling_recurrent_gemma import (
    RecurrentGemmaAttention,
    RecurrentGemmaDecoderLayer,
    RecurrentGemmaMlp,
    RecurrentGemmaRecurrentBlock,
)

from nnterp.components import Attention, HybridLayer, Mlp
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


class Layer(HybridLayer):
    """RecurrentGemma's residual block: one mixer, then the MLP, each added as it is; the base holds."""


class Attention(Attention):
    """RecurrentGemma's local attention; the shared eager interface with a sliding window, so the base holds."""


class RgLru(RgLru):
    """RecurrentGemma's recurrent block; the RG-LRU scan, so the base holds."""


class Mlp(Mlp):
    """RecurrentGemma's gated MLP, half `config.intermediate_size` wide; the base holds."""


def project_on_vocab(model, hidden):
    """The logit lens: the final norm, `lm_head`, then the model's soft cap, `tanh(logits / cap) * cap`."""
    if not model.interleaver.interleaving:
        hidden = hidden.to(model.lm_head._module.weight.device)
    cap = model.config.logits_soft_cap
    return torch.tanh(model.lm_head(model.norm(hidden)) / cap) * cap


ENVOYS = {
    RecurrentGemmaDecoderLayer: Layer,
    RecurrentGemmaAttention: Attention,
    RecurrentGemmaRecurrentBlock: RgLru,
    RecurrentGemmaMlp: Mlp,
}
