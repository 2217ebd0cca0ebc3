"""Beam (`BeamForCausalLM`): a sandwich block whose adds weigh the stream and the sublayer by their depth,
with a gated attention and a grouped sigmoid mixture after the dense blocks.

`h = sqrt((k-1)/k) * x + post_attention_layernorm(self_attn(input_layernorm(x))) / sqrt(k);
out = sqrt(k/(k+1)) * h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h))) / sqrt(k+1)`,
with `k = 2 * (i + 1)` on block `i`.

Each add counts the residual adds made so far (`attn_residual_add_idx`,
`mlp_residual_add_idx` on the block) and weighs both of its terms, so a contribution
is the post-norm's output times `1 / sqrt(k)`, and the stream enters the add scaled
by `sqrt((k - 1) / k)`: `layer_mid` is not `layer_input + attention_output` (see
`nnterp.components.depth_scaled`). The attention norms each head's queries and keys
(`q_norm`, `k_norm`), rotates them on the sliding-window blocks only, and on the
other blocks multiplies the queries by a position-dependent scale instead; after the
shared eager interface it multiplies each head's output by a sigmoid of `gate_proj`
plus a per-head bias, so `attention_premix` is the gated product, not
`attention_head_outputs`. A block is dense or a mixture by its `mlp_layer_types`
entry. The router (`gate`) scores its logits with a sigmoid, adds a correction bias
for the choice, keeps the best `topk_group` of `n_group` expert groups, picks the top
`top_k` experts among them and renormalizes their scores; the mixture multiplies the
experts' output by `routed_scaling_factor` (see `nnterp.components.ScaledRoutedMoe`)
and has no shared expert. The model softcaps the head's output
(`final_logit_softcapping`), which `project_on_vocab` applies too.
"""

from transformers.models.beam.modeling_beam import BeamAttention, BeamDecoderLayer, BeamMLP, BeamMoE

from nnterp.components import Mlp, ScaledRoutedMoe
from nnterp.components.depth_scaled import DEPTH_SCALED_MLP_OUTPUT, DepthScaledAttention, DepthScaledLayer

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Mlp(Mlp):
    """Beam's dense gated MLP; the contribution post-normed and depth-weighted."""

    mlp_output = DEPTH_SCALED_MLP_OUTPUT


class Moe(ScaledRoutedMoe):
    """Beam's mixture: a grouped sigmoid router with a choice bias (`gate`), grouped experts scaled after they run,
    no shared expert; the contribution post-normed and depth-weighted."""

    mlp_output = DEPTH_SCALED_MLP_OUTPUT

    SCORING = "sigmoid"
    ROUTER = "gate"
    SCALED = "final_hidden_states_1"


ENVOYS = {
    BeamDecoderLayer: DepthScaledLayer,
    BeamAttention: DepthScaledAttention,
    BeamMLP: Mlp,
    BeamMoE: Moe,
}
