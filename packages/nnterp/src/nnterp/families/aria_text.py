"""Aria's language model (`AriaTextForCausalLM`): Llama's block with a mixture of experts beside shared experts.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Every block's MLP is a mixture. Its router (`router`) projects the token onto one
logit per expert, keeps the top `moe_topk` logits and takes a softmax over those
alone; the grouped experts run on the chosen slots, and the shared experts (one
gated MLP `moe_num_shared_experts` times as wide as a routed expert) run on every
token beside them. The module returns the routed sum plus the shared output.
The router and the experts keep their own class names, not the mixture's block:
the envoys bind to the block, the attention and the mixture only.

The Aria wrapper (`aria`) is served by `nnterp.families.aria`.
"""

from transformers.models.aria.modeling_aria import AriaTextAttention, AriaTextDecoderLayer, AriaTextMoELayer

from nnterp.components import Attention, Layer, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Aria's mixture: a softmax over the chosen logits (`router`), grouped experts, shared experts beside them."""

    LOGITS = "nn_functional_linear_0"
    SHARED = "shared_experts.output"


ENVOYS = {
    AriaTextDecoderLayer: Layer,
    AriaTextAttention: Attention,
    AriaTextMoELayer: Moe,
}
