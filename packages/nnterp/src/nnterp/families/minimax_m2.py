"""MiniMax-M2 (`MiniMaxM2ForCausalLM`): a Llama-order block with query/key norms and a sigmoid-routed mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The router (`gate`) scores its logits with a sigmoid; the mixture module holds a
correction bias that is added to the scores for the choice of the top `top_k` only,
and the chosen experts' sigmoid scores, renormalized, are the weights. There is no
shared expert.
"""

from transformers.models.minimax_m2.modeling_minimax_m2 import (
    MiniMaxM2Attention,
    MiniMaxM2DecoderLayer,
    MiniMaxM2SparseMoeBlock,
)

from nnterp.components import Attention, Layer, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """MiniMax-M2's mixture: a sigmoid router with a correction bias (`gate`), grouped experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"


ENVOYS = {
    MiniMaxM2DecoderLayer: Layer,
    MiniMaxM2Attention: Attention,
    MiniMaxM2SparseMoeBlock: Moe,
}
