"""EXAONE-MoE (`ExaoneMoeForCausalLM`): Llama's order, query/key norms, and a grouped sigmoid mixture after dense blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms each head's queries and keys (`q_norm`, `k_norm`) before the
rotary embedding; on a model with a window, the blocks `config.layer_types` marks
`sliding_attention` attend within `sliding_window` and apply the rotary embedding,
and the full-attention blocks apply none. `config.mlp_layer_types` says which blocks
carry a dense MLP and which a mixture, so the mixture values are reported per block.
The router (`gate`) scores its logits with a sigmoid, adds a correction bias for the
choice only, keeps the best `topk_group` of `n_group` expert groups, then the top
`top_k` experts; `expert_weights` are their sigmoid scores, renormalized when
`norm_topk_prob` is set and multiplied by `routed_scaling_factor`. The shared
experts run on the mixture's input after the routed experts, and the module returns
the sum.
"""

from transformers.models.exaone_moe.modeling_exaone_moe import (
    ExaoneMoeAttention,
    ExaoneMoeDecoderLayer,
    ExaoneMoeMLP,
    ExaoneMoeSparseMoEBlock,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """EXAONE-MoE's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    ExaoneMoeDecoderLayer: Layer,
    ExaoneMoeAttention: Attention,
    ExaoneMoeMLP: Mlp,
    ExaoneMoeSparseMoEBlock: Moe,
}
