"""dots3 note (`Dots3NoteForConditionalGeneration`): dots3 note's language model behind a packed ViT with routed blocks.

The text stack sits under `model.language_model` and is served with dots3 note's
classes (`nnterp.families.dots3_note_text`); the wrapper loads with
`task="image-text-to-text"`. The vision tower (`vision`, at `model.vision_tower`) is a
Qwen-style packed ViT. Its patch embedding is a convolution over single frames followed
by an RMS norm (`patch_embeddings` is the normed patches), its blocks are
`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`
with q/k norms in the attention, and `config.vision_config.mlp_layer_types` makes a
block's `mlp` either a gated MLP or a routed mixture with no shared expert
(`VisionMoe`), which serves its `mlp_output` only, not its routing. The attention runs
once per image, so its pattern and scores are unavailable (`PER_IMAGE`).
`tower_output` is the stream after the tower's final norm, which the merger
(`projector`, at `model.vision_tower.merger`) norms again before projecting 2x2 patch
groups to the text width; the wrapper scatters the result in `Dots3NoteModel`. The
audio tower has no values.
"""

from transformers.models.dots3_note.modeling_dots3_note import (
    Dots3NoteModel,
    Dots3NoteVisionAttention,
    Dots3NoteVisionBlock,
    Dots3NoteVisionMLP,
    Dots3NoteVisionModel,
    Dots3NoteVisionMoE,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp, unavailable
from nnterp.components.moe import ROUTED
from nnterp.components.vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import dots3_note_text

RENAME = {
    **dots3_note_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_tower.merger": "projector",
    **QWEN_TOWER_RENAME,
}

#: The root sizes, the first block's as the text family answers them: a sliding block sets its own.
num_heads = dots3_note_text.num_heads
num_kv_heads = dots3_note_text.num_kv_heads
head_dim = dots3_note_text.head_dim
qk_head_dim = dots3_note_text.qk_head_dim


class VisionMoe(VisionMlp):
    """A tower block's routed mixture, served as an MLP: its output, and no one activation or neuron vector.

    The router and expert values are not served: `Moe` lays them out over the text's
    tokens, `[batch, seq, ...]`, and this mixture runs over the tower's packed patches.
    """

    mlp_activation = unavailable(ROUTED)
    mlp_neurons = unavailable(ROUTED)


ENVOYS = {
    **dots3_note_text.ENVOYS,
    Dots3NoteVisionModel: QwenVision,
    Dots3NoteVisionBlock: VisionLayer,
    Dots3NoteVisionAttention: QwenVisionAttention,
    Dots3NoteVisionMLP: VisionMlp,
    Dots3NoteVisionMoE: VisionMoe,
    Dots3NoteModel: ImageScatter,
}
