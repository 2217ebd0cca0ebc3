"""Qwen2-MoE (`Qwen2MoeForCausalLM`): Qwen2's block with a mixture of experts and a gated shared expert.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The mixture's router (`gate`) scores its logits with a softmax over every expert
and keeps the top `top_k`, renormalized when `norm_topk_prob` is set. Beside the
routed experts runs a shared expert, whose output is multiplied by a sigmoid gate
of the token; `shared_expert_output` is that gated product, read after
`routed_output`, and the module returns their sum. Blocks listed in
`mlp_only_layers`, or off the `decoder_sparse_step` schedule, carry a dense MLP.
The shared expert is a dense MLP module inside the mixture and gets the dense
`Mlp` envoy there too.
"""

from transformers.models.qwen2_moe.modeling_qwen2_moe import (
    Qwen2MoeAttention,
    Qwen2MoeDecoderLayer,
    Qwen2MoeMLP,
    Qwen2MoeSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Qwen2-MoE's mixture: a softmax router (`gate`), grouped experts, a sigmoid-gated shared expert."""

    SCORING = "softmax"
    ROUTER = "gate"
    SHARED = "source.shared_expert_output_1.output"
    # The gated product is a binding of this forward, read after the experts have run inside it.
    sourced = True


ENVOYS = {
    Qwen2MoeDecoderLayer: Layer,
    Qwen2MoeAttention: Attention,
    Qwen2MoeMLP: Mlp,
    Qwen2MoeSparseMoeBlock: Moe,
}
