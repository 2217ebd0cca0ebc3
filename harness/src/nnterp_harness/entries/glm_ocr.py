from ..entry import Entry
from ..vision import ProcessorParts
from .glm4v import GLM4V_TEXT, GLM_VISION_TOKENS, SIDE, glm_processor

#: The GLM-OCR ViT shrunk: two blocks of width 16 over 8-pixel patches, a block MLP 48 wide, merged 2x2 by the
#: downsample convolution to the text width. It has no position grid, so `image_size` sizes nothing.
GLM_OCR_VIT = {
    "depth": 2,
    "hidden_size": 16,
    "intermediate_size": 48,
    "num_heads": 2,
    "patch_size": 8,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "out_hidden_size": GLM4V_TEXT["hidden_size"],
}


def _processor(tokenizer, config):
    # GLM-OCR ships GLM-4.6V's processor; no auto mapping names it for this type, so the checkpoint does.
    parts = glm_processor(SIDE, "Glm46VImageProcessorPil", "glm46v")(tokenizer, config)
    return ProcessorParts(
        parts.tokenizer, parts.image_processor, parts.chat_template, processor_class="Glm46VProcessor"
    )


#: GLM-OCR: GLM-4V's text block with unbiased projections, its ViT with per-head query and key norms and no position
#: grid, a 2x2 downsample convolution and a gated merger as projector.
ENTRIES = (
    Entry(
        "glm_ocr",
        "glm_ocr",
        {
            "text_config": GLM4V_TEXT,
            "vision_config": GLM_OCR_VIT,
            **GLM_VISION_TOKENS,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
