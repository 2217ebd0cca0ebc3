"""Step-3.5's text model (`Step3p7TextModel`): Laguna's block with a head-gated attention and a scaled mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Laguna's block: the norms are Gemma's (`x * (1 + weight)`), the attention norms each
head's queries and keys (`q_norm`, `k_norm`), rotates part of each head
(`partial_rotary_factor`, per layer kind), calls the shared eager interface and
multiplies each head's output by a sigmoid of `g_proj` (one gate per head) before
`o_proj`, so `attention_premix` is the gated product, not `attention_head_outputs`.
Blocks marked `sliding_attention` in `layer_types` attend over the last
`sliding_window` tokens, with their own query head count
(`num_sliding_attention_heads`). A block is dense or a mixture by its
`mlp_layer_types` entry. The dense MLP and the shared expert clamp the activated gate
and the up projection at the block's `swiglu_limits_shared` entry where it has one, so
`mlp_activation` is the activation before that clamp and `mlp_neurons` the clamped
product. The router (`gate`) scores its logits with a sigmoid, adds a correction bias
for the choice only and renormalizes the chosen scores. The experts loop over the
chosen experts in their own forward (no grouped implementation), so `expert_outputs`
is unavailable. The mixture runs the shared expert first, multiplies the experts'
output by `moe_router_scaling_factor`, then adds the shared output, so
`routed_output` is that scaled product (see `nnterp.components.ScaledRoutedMoe`).

The type has no causal-LM class; transformers ships its classes in the Step3p7
wrapper's package, and the wrapper (`step3p7`) is served by `nnterp.families.step3p7`.
"""

from transformers.models.step3p7.modeling_step3p7 import (
    Step3p7Attention,
    Step3p7DecoderLayer,
    Step3p7MLP,
    Step3p7SparseMoeBlock,
)

from nnterp.components import OWN_EXPERT_LOOP, Attention, Layer, Mlp, ScaledRoutedMoe, unavailable

#: The blocks carry the standard names; the wrapper's module names where the text model sits.
RENAME = {}


class Moe(ScaledRoutedMoe):
    """Step-3.5's mixture: a sigmoid router with a choice bias (`gate`), experts that loop in their own forward and
    are scaled after they run, a shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"

    expert_outputs = unavailable(OWN_EXPERT_LOOP)


ENVOYS = {
    Step3p7DecoderLayer: Layer,
    Step3p7Attention: Attention,
    Step3p7MLP: Mlp,
    Step3p7SparseMoeBlock: Moe,
}
