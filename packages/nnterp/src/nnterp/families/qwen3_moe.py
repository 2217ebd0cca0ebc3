"""Qwen3-MoE (`Qwen3MoeForCausalLM`): Qwen3's block with a mixture of experts.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms each head's queries and keys (`q_norm`, `k_norm`) before the
rotary embedding, inside the module, so the queries and keys are read normed. The
router (`gate`) takes a softmax over every expert and keeps the top `top_k`,
renormalized when `norm_topk_prob` is set; there is no shared expert. Blocks in
`mlp_only_layers`, or off the `decoder_sparse_step` schedule, carry a dense MLP.
"""

from transformers.models.qwen3_moe.modeling_qwen3_moe import (
    Qwen3MoeAttention,
    Qwen3MoeDecoderLayer,
    Qwen3MoeMLP,
    Qwen3MoeSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Qwen3-MoE's mixture: a softmax router (`gate`), grouped experts, no shared expert."""

    SCORING = "softmax"
    ROUTER = "gate"


ENVOYS = {
    Qwen3MoeDecoderLayer: Layer,
    Qwen3MoeAttention: Attention,
    Qwen3MoeMLP: Mlp,
    Qwen3MoeSparseMoeBlock: Moe,
}
