"""Laguna (`LagunaForCausalLM`): a Llama-order block with a head-gated attention, sliding-window blocks, and a
sigmoid mixture with a shared expert on the blocks `mlp_layer_types` marks sparse.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms each head's queries and keys (`q_norm`, `k_norm`), rotates part
of each head (`partial_rotary_factor`, per layer kind), calls the shared eager
interface and multiplies each head's output by a softplus of `g_proj` (one gate per
head, or per channel) before `o_proj`, so `attention_premix` is the gated product,
not `attention_head_outputs`. Blocks marked `sliding_attention` in `layer_types`
attend over the last `sliding_window` tokens. The query head count may differ per
block (`num_attention_heads_per_layer`). A block is dense or a mixture by its
`mlp_layer_types` entry. The router (`gate`) projects the stream, softcaps the logits
when `moe_router_logit_softcapping` is set, scores them with a sigmoid, adds a
correction bias for the choice only and renormalizes the chosen scores;
`router_logits` is the projection before the softcap. The mixture multiplies the
experts' output by `moe_routed_scaling_factor` before adding the shared expert (run
first, on the mixture's input), so `routed_output` is that scaled product (see
`nnterp.components.ScaledRoutedMoe`).
"""

from transformers.models.laguna.modeling_laguna import (
    LagunaAttention,
    LagunaDecoderLayer,
    LagunaMLP,
    LagunaSparseMoeBlock,
)

from nnterp.components import Attention, Layer, Mlp, ScaledRoutedMoe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(ScaledRoutedMoe):
    """Laguna's mixture: a softcapped sigmoid router with a choice bias (`gate`), grouped experts scaled after
    they run, a shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    LagunaDecoderLayer: Layer,
    LagunaAttention: Attention,
    LagunaMLP: Mlp,
    LagunaSparseMoeBlock: Moe,
}
