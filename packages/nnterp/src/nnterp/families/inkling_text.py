"""Inkling (`InklingForCausalLM`): attention blocks whose sublayers end in a short convolution, and a mixture.

Every block runs softmax attention and then an MLP, each post-processed by a
depthwise causal convolution over the last `conv_kernel_size` tokens that keeps a
residual around itself (`sconv(y) = y + conv(y)`, computed in float32):
`h = x + attn_sconv(self_attn(input_layernorm(x)));
out = h + mlp_sconv(mlp(post_attention_layernorm(h)))`. The contributions are read
at the two block-level convolutions (`attn_sconv`, `mlp_sconv`), so the identity
`layer_input + attention_output + mlp_output == layer_output` holds; the native
modules stay reachable under their names. A short convolution here is no mixer of
its own: it follows a sublayer and every block keeps its attention, so no block
carries `linear_attn` and the convolutions' cached windows are not served as state.

`config.layer_types` gives each block `hybrid_sliding` (a sliding window, its own
head counts and width) or `hybrid` (full attention). The attention convolves its
keys and values along the sequence too (`k_sconv`, `v_sconv`) before the per-head
RMS norms, scales the scores by `1 / head_dim` and adds a relative position bias
that each query mixes from a trained bank of bias profiles (`r_proj`,
`rel_logits_proj`); there is no rotary embedding. On full-attention blocks with
`log_scaling_n_floor` set, the queries and the bias grow with the log of the
position. The queries, keys and values are read as they enter the attention
interface, after all of this; `attention_scores` include the bias and the mask.

`config.mlp_layer_types` gives each block a dense gated MLP (`dense`, scaled by
its `global_scale`) or the mixture (`sparse`): one router projection (`gate`)
scores the routed and the shared experts together; the routed experts are chosen
by sigmoid score plus a correction bias, and the chosen routed and all shared
logits are normalized together in log-sigmoid space, then scaled by `route_scale`
and the router's `global_scale`. `router_logits` are the routed experts' columns
of that projection (a write there decides the choice and the weights; the shared
experts' columns stay as computed), and the shared experts' output, weighted by
their share, is `shared_expert_output`. The embedding is RMS-normed inside
`embed_tokens`, and the head divides the final normed stream by
`logits_mup_width_multiplier` before `lm_head`.

The Inkling wrapper (`inkling_mm_model`) is served by `nnterp.families.inkling_mm_model`.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.inkling.modeling_inkling import (
    InklingAttention,
    InklingDecoderLayer,
    InklingMLP,
    InklingMoE,
)

from nnterp.components import (
    Attention,
    Layer,
    Mlp,
    Moe,
    RouterLogits,
    mixture_reason,
    normed_contribution,
    resolve,
)
from nnterp.components.logit_lens import LogitLens
from nnterp.components.tokens import TokenEProperty, token_rows

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: The router's one projection, whose first `num_experts` columns score the routed experts.
_ROUTER_PROJECTION = "gate.source.F_linear_0.output"


class Attention(Attention):
    """Inkling's attention; its own eager function on the shared interface, the contribution after `attn_sconv`."""

    attention_output = normed_contribution("attn_sconv", "attention")


class Mlp(Mlp):
    """Inkling's dense gated MLP, scaled by `global_scale`; the contribution after `mlp_sconv`."""

    mlp_output = normed_contribution("mlp_sconv", "mlp")


class Moe(Moe):
    """Inkling's mixture: one projection (`gate`) for routed and shared experts, grouped experts, shared experts.

    The contribution is read after `mlp_sconv`, as on the dense blocks.
    """

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"

    mlp_output = normed_contribution("mlp_sconv", "mlp")

    @TokenEProperty(
        _ROUTER_PROJECTION,
        description="The router's logits of the routed experts before the scoring; the router scores what is written",
        unavailable=mixture_reason,
    )
    def router_logits(self, value) -> RouterLogits:
        return value[..., : self.num_experts]

    @router_logits.postprocess
    def router_logits(self, value):
        # The projection also scores the shared experts: a write replaces the routed columns only.
        location, _ = resolve(self, _ROUTER_PROJECTION, walk=True, name="router_logits")
        rows = token_rows(self, Mediator.value(location)).clone()
        rows[..., : self.num_experts] = value
        return rows


project_on_vocab = LogitLens(divide_before="logits_mup_width_multiplier", vocab="unpadded_vocab_size")


ENVOYS = {
    InklingDecoderLayer: Layer,
    InklingAttention: Attention,
    InklingMLP: Mlp,
    InklingMoE: Moe,
}
