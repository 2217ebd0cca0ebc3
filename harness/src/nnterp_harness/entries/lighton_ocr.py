from ..entry import Entry
from ..vision import chat_template, image_token_id, with_image_tokens
from .llava import PIXTRAL_VISION, QWEN3_TEXT

#: The tokens the processor reads off its tokenizer; it writes only the image token, once per merged patch.
PIXTRAL_TOKENS = {
    "image_token": "<|image_pad|>",
    "image_break_token": "<|vision_start|>",
    "image_end_token": "<|vision_end|>",
}
#: The projector's patch merger: each 2x2 group of patches becomes one image token.
MERGE = 2


def _processor(tokenizer, config):
    from transformers import LightOnOcrProcessor
    from transformers.models.pixtral.image_processing_pil_pixtral import PixtralImageProcessorPil

    vision = config.vision_config
    images = PixtralImageProcessorPil(
        size={"longest_edge": vision.image_size}, patch_size={"height": vision.patch_size, "width": vision.patch_size}
    )
    return LightOnOcrProcessor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer, **PIXTRAL_TOKENS),
        patch_size=vision.patch_size,
        spatial_merge_size=config.spatial_merge_size,
        chat_template=chat_template(PIXTRAL_TOKENS["image_token"]),
    )


#: LightOnOCR: a Pixtral tower (every image's patches packed in one row), a norm, a 2x2 patch merger and a
#: two-layer projector, on a Qwen3 text model.
ENTRIES = (
    Entry(
        "lighton_ocr",
        "lighton_ocr",
        {
            "text_config": QWEN3_TEXT,
            "vision_config": PIXTRAL_VISION,
            "spatial_merge_size": MERGE,
            "image_token_id": image_token_id(PIXTRAL_TOKENS["image_token"]),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
