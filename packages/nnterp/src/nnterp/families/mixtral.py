"""Mixtral (`MixtralForCausalLM`): Mistral's block with a mixture of experts in place of the MLP.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The mixture's router (`gate`) takes a softmax over every expert, keeps the top
`top_k` and renormalizes them to sum to one; there is no shared expert.
"""

from transformers.models.mixtral.modeling_mixtral import (
    MixtralAttention,
    MixtralDecoderLayer,
    MixtralSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Mixtral's mixture: a softmax router renormalized over the chosen experts (`gate`), grouped experts."""

    SCORING = "softmax"
    ROUTER = "gate"


ENVOYS = {
    MixtralDecoderLayer: Layer,
    MixtralAttention: Attention,
    MixtralSparseMoeBlock: Moe,
}
