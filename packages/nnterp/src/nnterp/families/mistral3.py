"""Mistral 3 (`Mistral3ForConditionalGeneration`, Mistral Small 3.1): a Mistral text model behind a packed Pixtral tower.

The text stack sits under `model.language_model` and is served with the classes of its
text family, Mistral or Ministral 3 (`nnterp.families.mistral`, `ministral3`). The
Pixtral tower (`vision`, at `model.vision_tower`) crops each image's patch grid and
packs every image's patches into one row, `[1, patches, vision_hidden_size]`, with no
final norm (`PixtralVision`). The projector (`projector`, at
`model.multi_modal_projector`) RMS-norms the stream of the block `vision_feature_layer`
names (the last by default), merges each image's patches in squares of
`spatial_merge_size` by side with a learned linear map, and projects them to the text
width through a two-layer MLP. The wrapper scatters in `Mistral3Model`, one image token
per merged square; the processor's row breaks and image end are text tokens the
scatter skips.
"""

from transformers.models.mistral3.modeling_mistral3 import Mistral3Model
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
)

from nnterp.components import ImageScatter, PixtralVision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import LLAVA_LAYOUT_RENAME, PIXTRAL_TOWER_RENAME
from nnterp.families import ministral3, mistral

RENAME = {**mistral.RENAME, **LLAVA_LAYOUT_RENAME, **PIXTRAL_TOWER_RENAME}

ENVOYS = {
    **ministral3.ENVOYS,
    **mistral.ENVOYS,
    PixtralVisionModel: PixtralVision,
    PixtralAttentionLayer: VisionLayer,
    PixtralAttention: VisionAttention,
    PixtralMLP: VisionMlp,
    Mistral3Model: ImageScatter,
}
