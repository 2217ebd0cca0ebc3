"""Cosmos3 Edge (`Cosmos3EdgeForConditionalGeneration`): its text model behind a packed SigLIP2 NaViT and a 2x2 merger.

The text stack sits under `model.language_model` and is served with Cosmos3 Edge's text
classes (`nnterp.families.cosmos3_edge_text`). The tower (`vision`, at `model.visual`)
is a SigLIP2 NaViT: it embeds the flattened patches with a linear layer, adds learned
positions resized to each image's grid, packs every image's patches into one row and
calls the attention once per image, so its pattern and scores are unavailable
(`PER_IMAGE`); its final norm, `post_layernorm`, is the tower's `norm`. The patch merger (`projector`, at `model.projector`) norms the tower's output,
merges each 2x2 group of patches and projects it to the text width; the wrapper
scatters it in `Cosmos3EdgeModel`.
"""

from transformers.models.cosmos3_edge.modeling_cosmos3_edge import (
    Cosmos3EdgeMLP,
    Cosmos3EdgeModel,
    Cosmos3EdgeVisionAttention,
    Cosmos3EdgeVisionEncoderLayer,
    Cosmos3EdgeVisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import cosmos3_edge_text

RENAME = {
    **cosmos3_edge_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}


ENVOYS = {
    **cosmos3_edge_text.ENVOYS,
    Cosmos3EdgeVisionModel: QwenVision,
    Cosmos3EdgeVisionEncoderLayer: VisionLayer,
    Cosmos3EdgeVisionAttention: QwenVisionAttention,
    Cosmos3EdgeMLP: VisionMlp,
    Cosmos3EdgeModel: ImageScatter,
}
