"""OLMoE (`OlmoeForCausalLM`): a Llama-order block with a mixture of experts and query/key norms.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms the whole query and key projections (`q_norm`, `k_norm`) before
splitting them into heads. The router (`gate`) takes a softmax over every expert and
keeps the top `top_k`, renormalized when `norm_topk_prob` is set; there is no shared
expert.
"""

from transformers.models.olmoe.modeling_olmoe import (
    OlmoeAttention,
    OlmoeDecoderLayer,
    OlmoeSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """OLMoE's mixture: a softmax router (`gate`), grouped experts, no shared expert."""

    SCORING = "softmax"
    ROUTER = "gate"


ENVOYS = {
    OlmoeDecoderLayer: Layer,
    OlmoeAttention: Attention,
    OlmoeSparseMoeBlock: Moe,
}
