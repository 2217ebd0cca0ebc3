"""AFMoE (`AfmoeForCausalLM`): a sandwich block with a gated attention and a sigmoid mixture after the dense blocks.

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))`.

The block norms each sublayer's input and output; its MLP norms are spelled
`pre_mlp_layernorm` and `post_mlp_layernorm` and are aliased with the Gemma line's
names, so the contributions are read on the output norms. The attention norms the
queries and keys per head, rotates them on the sliding-window blocks only
(`layer_types`), calls the shared eager interface, and multiplies the merged heads
by a sigmoid of `gate_proj` before `o_proj`, so `attention_premix` is the gated
product, not `attention_head_outputs`. The first `num_dense_layers` blocks carry a
dense MLP, the others a mixture. The router (`router`) projects the flattened
stream with its `gate` layer, scores with a sigmoid, adds the mixture's
`expert_bias` for the choice only, and renormalizes the chosen scores before
multiplying them by `route_scale`. The shared experts run before the routed ones,
and the module returns their sum. With `mup_enabled` the model multiplies the
embedding output by `sqrt(hidden_size)` before the first block.
"""

from transformers.models.afmoe.modeling_afmoe import (
    AfmoeAttention,
    AfmoeDecoderLayer,
    AfmoeMLP,
    AfmoeSparseMoeBlock,
)

from nnterp.components import Mlp, Moe, SandwichAttention, SandwichLayer, normed_contribution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "pre_mlp_layernorm": "pre_feedforward_layernorm",
    "post_mlp_layernorm": "post_feedforward_layernorm",
}


# A key above the host names the native module, not its alias.
_POST_NORMED = normed_contribution("post_mlp_layernorm", "mlp")


class Mlp(Mlp):
    """AFMoE's dense gated MLP, on the first blocks and as the shared experts; the contribution post-normed."""

    mlp_output = _POST_NORMED


class Moe(Moe):
    """AFMoE's mixture: a sigmoid router with a choice bias (`router`), grouped experts, shared experts."""

    mlp_output = _POST_NORMED

    SCORING = "sigmoid"
    # The logits are the router's `gate` layer's output, taken inside the router's forward.
    LOGITS = "self_gate_0"
    SHARED = "shared_experts.output"


ENVOYS = {
    AfmoeDecoderLayer: SandwichLayer,
    AfmoeAttention: SandwichAttention,
    AfmoeMLP: Mlp,
    AfmoeSparseMoeBlock: Moe,
}
