"""Phi-MoE (`PhimoeForCausalLM`): Mixtral's layout with layer norms and a sparse-mixer router.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The norms are layer norms with a bias, and the head has a bias of its own when
`lm_head_bias` is set. The router (`router`, a linear layer) picks the experts
with the sparse mixer: slot one takes the best logit, slot two the best of the
rest, and each slot's weight is a softmax over the logits its round keeps (those
within `router_jitter_noise` relative distance of that round's best), gathered at
the chosen expert. The weights are therefore not renormalized to sum to one, and
there is no shared expert.
"""

from transformers.models.phimoe.modeling_phimoe import (
    PhimoeAttention,
    PhimoeDecoderLayer,
    PhimoeSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Phi-MoE's mixture: the sparse-mixer router (`router`), grouped experts, no shared expert."""

    SCORING = "sparsemixer"
    # The router is a linear layer subclass: its logits are the parent's forward, called first in its own.
    LOGITS = "forward_0"


ENVOYS = {
    PhimoeDecoderLayer: Layer,
    PhimoeAttention: Attention,
    PhimoeSparseMoeBlock: Moe,
}
