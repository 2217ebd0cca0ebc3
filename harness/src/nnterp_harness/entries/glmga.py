from ..entry import Entry
from .glm4v import GLM4V_TEXT, GLM_VISION_TOKENS, GLM_VIT, SIDE, glm_processor

#: Glmga: GLM-4.6V's wrapper (GLM-4V's text model and ViT) under its own config and image processor.
ENTRIES = (
    Entry(
        "glmga",
        "glmga",
        {"text_config": GLM4V_TEXT, "vision_config": GLM_VIT, **GLM_VISION_TOKENS, "tie_word_embeddings": True},
        auto_class="AutoModelForImageTextToText",
        processor=glm_processor(SIDE, "GlmgaImageProcessorPil", "glmga"),
    ),
)
