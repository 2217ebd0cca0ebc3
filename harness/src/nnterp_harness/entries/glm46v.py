from ..entry import Entry
from .glm4v import GLM4V_TEXT, GLM_VISION_TOKENS, GLM_VIT, SIDE, glm_processor

#: GLM-4.6V: GLM-4V's text model and ViT under their own wrapper and image processor.
ENTRIES = (
    Entry(
        "glm46v",
        "glm46v",
        {"text_config": GLM4V_TEXT, "vision_config": GLM_VIT, **GLM_VISION_TOKENS, "tie_word_embeddings": True},
        auto_class="AutoModelForImageTextToText",
        processor=glm_processor(SIDE, "Glm46VImageProcessorPil", "glm46v"),
    ),
)
