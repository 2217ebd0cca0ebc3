"""MiniMax-M3 text model (`MiniMaxM3VLForCausalLM`): a Llama-order block with per-head query/key norms, blocks
whose keys a lightning indexer selects, and a biased sigmoid mixture with a shared expert on the sparse blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

transformers maps `minimax_m3_vl_text` to this causal-LM class, the text model of
the MiniMax-M3 image-text wrapper. The attention norms each head's queries and keys
(`q_norm`, `k_norm`), rotates the first `rotary_dim` channels of each head, and calls
the shared eager interface. On blocks marked `minimax_m3_sparse` in `layer_types` an
indexer (`indexer`) scores the keys in blocks of `index_block_size` and the
attention mask keeps, per query, the best `index_topk_blocks` blocks and the
`index_local_blocks` before it, so the pattern is zero on the other keys. A block is
dense or a mixture by its `mlp_layer_types` entry. The dense MLP projects gate and
up together (`gate_up_proj`), clamps both at `swiglu_limit`, and multiplies
`up + 1` by the gate times a sigmoid of `swiglu_alpha` times the gate:
`mlp_activation` is that gated product before the up factor (`glu`). The router
(`gate`) scores its logits with a sigmoid, adds a correction bias for the choice only
and renormalizes the chosen scores. The mixture runs the shared expert (a dense MLP)
first, multiplies the experts' output by `routed_scaling_factor`, then adds the
shared output, so `routed_output` is that scaled product (see
`nnterp.components.ScaledRoutedMoe`).

The `MiniMaxM3SparseForConditionalGeneration` wrapper (`minimax_m3_vl`) is served by
`nnterp.families.minimax_m3_vl`.
"""

from transformers.models.minimax_m3_vl.modeling_minimax_m3_vl import (
    MiniMaxM3VLAttention,
    MiniMaxM3VLDecoderLayer,
    MiniMaxM3VLDenseMLP,
    MiniMaxM3VLSparseMoeBlock,
)

from nnterp.components import Attention, EProperty, Layer, Mlp, Neurons, ScaledRoutedMoe, always

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Mlp(Mlp):
    """MiniMax-M3's dense MLP, on the dense blocks and as the shared expert: a fused gate/up projection and a clamped
    gated activation computed in the forward."""

    # The activation is read inside the forward, also after a submodule's output in the same trace.
    sourced = True

    @EProperty(
        "source.glu_0.output",
        description="The clamped gate times the sigmoid of its scaled self, before the up factor multiplies it",
        unavailable=always,
    )
    def mlp_activation(self, value) -> Neurons:
        return value


class Moe(ScaledRoutedMoe):
    """MiniMax-M3's mixture: a sigmoid router with a choice bias (`gate`), grouped experts scaled after they run,
    a shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


def intermediate_size(model) -> int:
    """The dense MLP's width, `dense_intermediate_size` (`config.intermediate_size` is one expert's)."""
    return model.config.get_text_config().dense_intermediate_size


ENVOYS = {
    MiniMaxM3VLDecoderLayer: Layer,
    MiniMaxM3VLAttention: Attention,
    MiniMaxM3VLDenseMLP: Mlp,
    MiniMaxM3VLSparseMoeBlock: Moe,
}
