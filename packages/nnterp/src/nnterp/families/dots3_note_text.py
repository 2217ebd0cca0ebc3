"""dots3 note's language model (`Dots3NoteForCausalLM`): gated latent attention, indexed or sliding, and a mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is DeepSeek-V3's multi-head latent attention (see
`nnterp.components.latent`) with its query and key/value latents rescaled and the
rotary key normed, and with a sigmoid gate per head (`g_proj`) on the head outputs
before `o_proj`: `attention_premix` is the gated head outputs, not
`attention_head_outputs`. `layer_types` decides each block's attention: an
`indexed_attention` block folds its indexer's choice of `index_topk` keys per query
into the mask (DeepSeek-V3.2's sparse attention), a `sliding_attention` block keeps a
window of `sliding_window` keys and takes its own head counts and latent widths
(`per_layer_config`), so the attention sizes are per block. `mlp_layer_types` gives
the first blocks a dense MLP and the others DeepSeek-V3's mixture: a grouped sigmoid
router with a correction bias (`gate`), grouped experts, and shared experts added
after the routed ones. The block, dense MLP and mixture envoys are DeepSeek-V3's.

The family also serves the `Dots3NoteForConditionalGeneration` wrapper, loaded with
`task="image-text-to-text"`: the text model under `model.language_model` and the
vision tower (`vision`, at `model.vision_tower`), a Qwen-style packed ViT. Its patch
embedding is a convolution over single frames followed by an RMS norm
(`patch_embeddings` is the normed patches), its blocks are
`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`
with q/k norms in the attention, and `config.vision_config.mlp_layer_types` makes
a block's `mlp` either a gated MLP or a routed mixture with no shared expert
(`VisionMoe`), which serves its `mlp_output` only, not its routing. The attention runs once per
image, so its pattern and scores are unavailable (`PER_IMAGE`). `tower_output` is
the stream after the tower's final norm, which the merger (`projector`) norms again
before projecting 2x2 patch groups to the text width. The audio tower has no values.
"""

from transformers.models.dots3_note.modeling_dots3_note import (
    Dots3NoteModel,
    Dots3NoteTextAttention,
    Dots3NoteTextDecoderLayer,
    Dots3NoteTextMLP,
    Dots3NoteTextMoE,
    Dots3NoteVisionAttention,
    Dots3NoteVisionBlock,
    Dots3NoteVisionMLP,
    Dots3NoteVisionModel,
    Dots3NoteVisionMoE,
)

from nnterp.components import (
    ImageScatter,
    LatentAttention,
    QwenVision,
    QwenVisionAttention,
    VisionLayer,
    VisionMlp,
    unavailable,
)
from nnterp.components.moe import ROUTED
from nnterp.components.vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import deepseek_v3
from nnterp.families.deepseek_v3 import Layer, Mlp, Moe

__all__ = [
    "ENVOYS",
    "RENAME",
    "Attention",
    "Layer",
    "Mlp",
    "Moe",
    "VisionMoe",
    "head_dim",
    "num_heads",
    "num_kv_heads",
    "qk_head_dim",
]


RENAME = {
    **deepseek_v3.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_tower.merger": "projector",
    **QWEN_TOWER_RENAME,
}


class Attention(LatentAttention):
    """dots3's gated latent attention on the shared eager interface; its sizes are the block's own."""


# The config refuses a model-wide read of the sizes a sliding block sets for itself, so the
# root answers the first block's; `model.layers[i].self_attn` answers each block's own.
def num_heads(model) -> int:
    """The first block's query heads."""
    return model.layers[0].self_attn.num_heads


def num_kv_heads(model) -> int:
    """The first block's key/value heads: as many as its query heads."""
    return model.layers[0].self_attn.num_kv_heads


def head_dim(model) -> int:
    """The first block's value width, `v_head_dim`."""
    return model.layers[0].self_attn.head_dim


def qk_head_dim(model) -> int:
    """The first block's query/key width: the no-rope and the rotary parts."""
    return model.layers[0].self_attn.qk_head_dim


class VisionMoe(VisionMlp):
    """A tower block's routed mixture, served as an MLP: its output, and no one activation or neuron vector.

    The router and expert values are not served: `Moe` lays them out over the text's
    tokens, `[batch, seq, ...]`, and this mixture runs over the tower's packed patches.
    """

    mlp_activation = unavailable(ROUTED)
    mlp_neurons = unavailable(ROUTED)


ENVOYS = {
    Dots3NoteTextDecoderLayer: Layer,
    Dots3NoteTextAttention: Attention,
    Dots3NoteTextMLP: Mlp,
    Dots3NoteTextMoE: Moe,
    Dots3NoteVisionModel: QwenVision,
    Dots3NoteVisionBlock: VisionLayer,
    Dots3NoteVisionAttention: QwenVisionAttention,
    Dots3NoteVisionMLP: VisionMlp,
    Dots3NoteVisionMoE: VisionMoe,
    Dots3NoteModel: ImageScatter,
}
