"""Mistral Large 4 (`MistralLarge4ForConditionalGeneration`): Mistral Large 4's text model behind Mistral 3's Pixtral tower and patch merger.

The text stack sits under `model.language_model` and is served with Mistral Large 4's
text classes (`nnterp.families.mistral_large4_text`). The wrapper is Mistral 3's (see
`nnterp.families.mistral3`): a Pixtral tower (`vision`, at `model.vision_tower`) that
packs every image's patches into one row, and a projector (`projector`, at
`model.multi_modal_projector`) that RMS-norms the stream of the block
`vision_feature_layer` names, merges each image's patches in squares of
`spatial_merge_size` by side (`patch_merger`) and projects them through a two-layer MLP.
`MistralLarge4Model` scatters the features in, one image token per merged square; the
processor's row breaks and image end are text tokens the scatter skips. The wrapper
softcaps the head's output (`final_logit_softcapping`), which `project_on_vocab`
applies too.
"""

from transformers.models.mistral_large4.modeling_mistral_large4 import MistralLarge4Model
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
)

from nnterp.components import ImageScatter, PixtralVision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import LLAVA_LAYOUT_RENAME, PIXTRAL_TOWER_RENAME
from nnterp.families import mistral_large4_text

RENAME = {**mistral_large4_text.RENAME, **LLAVA_LAYOUT_RENAME, **PIXTRAL_TOWER_RENAME}

#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = mistral_large4_text.head_dim
qk_head_dim = mistral_large4_text.qk_head_dim

ENVOYS = {
    **mistral_large4_text.ENVOYS,
    PixtralVisionModel: PixtralVision,
    PixtralAttentionLayer: VisionLayer,
    PixtralAttention: VisionAttention,
    PixtralMLP: VisionMlp,
    MistralLarge4Model: ImageScatter,
}
