"""MiniMax-M3-VL (`MiniMaxM3SparseForConditionalGeneration`): MiniMax-M3's text model behind a packed ViT.

The text model sits under `model.language_model` and is served with
`nnterp.families.minimax_m3_vl_text`'s classes. The ViT (`vision`, at
`model.vision_tower`, a `QwenVision`) embeds each patch with a 3-D convolution
(`patch_embed`, its output packed `[patches, width]`), applies a pre-norm, and runs
CLIP-order blocks on `[1, patches, width]` whose attention rotates part of each head by
the patch's temporal, height and width and runs once per image (`PER_IMAGE`); it has
no final norm, so `tower_output` is its last block's stream. The projector
(`projector`, `model.multi_modal_projector`) maps each patch to the text width,
concatenates each 2x2 merge group and maps it again, so `projector.input` is
`tower_output` without its images axis; `MiniMaxM3VLModel` scatters its output into
the token embeddings (`image_features`).
"""

from transformers.models.minimax_m3_vl.modeling_minimax_m3_vl import (
    MiniMaxM3VLModel,
    MiniMaxM3VLVisionAttention,
    MiniMaxM3VLVisionEncoderLayer,
    MiniMaxM3VLVisionMLP,
    MiniMaxM3VLVisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import LLAVA_LAYOUT_RENAME, SIGLIP_TOWER_RENAME
from nnterp.families import minimax_m3_vl_text

RENAME = {
    **minimax_m3_vl_text.RENAME,
    **LLAVA_LAYOUT_RENAME,
    # The ViT keeps CLIP's block names; its patch embedding (`embeddings`) and blocks (`layers`) sit on it directly.
    **{
        key: value
        for key, value in SIGLIP_TOWER_RENAME.items()
        if key not in ("embeddings.patch_embedding", "encoder.layers")
    },
    "embeddings": "patch_embed",
}

#: The dense MLP's width, `dense_intermediate_size`, read as on the text model alone.
intermediate_size = minimax_m3_vl_text.intermediate_size

ENVOYS = {
    **minimax_m3_vl_text.ENVOYS,
    MiniMaxM3VLVisionModel: QwenVision,
    MiniMaxM3VLVisionEncoderLayer: VisionLayer,
    MiniMaxM3VLVisionAttention: QwenVisionAttention,
    MiniMaxM3VLVisionMLP: VisionMlp,
    MiniMaxM3VLModel: ImageScatter,
}
