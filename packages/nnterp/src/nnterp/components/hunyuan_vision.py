"""HunYuanVL's ViT (HunYuanVL, HY-V4-VL): every image's patches in one row, each patch embedded alone, no final norm.

Both wrappers hold the tower at `model.vision_tower`, with CLIP's block names, and run
its patch merger (`model.vision_tower.patch_merger`, the projector) inside the tower,
once per image (`HUNYUAN_VL_WRAPPER_RENAME`). The tower packs every image's patches
into one row, `[1, patches, width]`, and keeps that batch of one through its blocks,
whose attention is called once per image, its queries, keys and values whole before
the split (`MiniCPMVisionAttention`), so its pattern and scores are unavailable
(`PER_IMAGE`).
"""

from .vision import (
    SIGLIP_TOWER_RENAME,
    WRAPPED_TEXT_RENAME,
    MiniCPMVision,
    PatchwiseVision,
)

#: A HunYuanVL-built wrapper's layout: the text model under `model.language_model`, the
#: ViT at `model.vision_tower` with CLIP's block names, and its patch merger as projector.
HUNYUAN_VL_WRAPPER_RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_tower.patch_merger": "projector",
    **SIGLIP_TOWER_RENAME,
}


class HunyuanVision(MiniCPMVision):
    """HunYuanVL's ViT: every image's patches in one row, no fixed resolution, the patches embedded one by one."""

    # The convolution embeds each patch alone, `[patches, width, 1, 1]`, read as the one row of patches; the
    # tower keeps its batch of one, so it is no packed `PatchwiseVision`, whose read this is.
    patch_embeddings = PatchwiseVision.patch_embeddings


__all__ = ["HUNYUAN_VL_WRAPPER_RENAME", "HunyuanVision"]
