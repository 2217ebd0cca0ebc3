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

The `MiniMaxM3SparseForConditionalGeneration` wrapper holds the text model under
`model.language_model` and its ViT under `model.vision_tower`: a 3-D convolution per
patch (`patch_embed`, its output packed `[patches, width]`), a pre-norm, CLIP-order
blocks on `[1, patches, width]` whose attention rotates part of each head by the
patch's temporal, height and width and runs once per image (`PER_IMAGE`), and no
final norm. The projector (`projector`, `model.multi_modal_projector`) maps each
patch to the text width, concatenates each 2x2 merge group and maps it again, so
`projector.input` is `tower_output` without its images axis.
"""

from transformers.models.minimax_m3_vl.modeling_minimax_m3_vl import (
    MiniMaxM3VLAttention,
    MiniMaxM3VLDecoderLayer,
    MiniMaxM3VLDenseMLP,
    MiniMaxM3VLModel,
    MiniMaxM3VLSparseMoeBlock,
    MiniMaxM3VLVisionAttention,
    MiniMaxM3VLVisionEncoderLayer,
    MiniMaxM3VLVisionMLP,
    MiniMaxM3VLVisionModel,
)

from nnterp.components import (
    Attention,
    EProperty,
    ImageScatter,
    Layer,
    Mlp,
    Neurons,
    QwenVision,
    QwenVisionAttention,
    ScaledRoutedMoe,
    VisionLayer,
    VisionMlp,
    always,
)
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    # The image-text wrapper: the text model, the ViT with CLIP's block names, and the projector.
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    **{
        key: value
        for key, value in SIGLIP_TOWER_RENAME.items()
        if key not in ("embeddings.patch_embedding", "encoder.layers")
    },
    "embeddings": "patch_embed",
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
    MiniMaxM3VLVisionModel: QwenVision,
    MiniMaxM3VLVisionEncoderLayer: VisionLayer,
    MiniMaxM3VLVisionAttention: QwenVisionAttention,
    MiniMaxM3VLVisionMLP: VisionMlp,
    MiniMaxM3VLModel: ImageScatter,
}
