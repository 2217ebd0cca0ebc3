from ..entry import Entry
from ..vision import IMAGE_TOKEN, ProcessorParts, chat_template, with_image_tokens
from .llava import SIGLIP_PATCHES, llava_config
from .llava_next import GRID


def _processor(tokenizer, config):
    from transformers.models.llava_onevision.image_processing_pil_llava_onevision import (
        LlavaOnevisionImageProcessorPil,
    )

    side = config.vision_config.image_size
    images = LlavaOnevisionImageProcessorPil(
        size={"height": side, "width": side}, image_grid_pinpoints=config.image_grid_pinpoints
    )
    return ProcessorParts(
        with_image_tokens(tokenizer),
        images,
        chat_template(IMAGE_TOKEN),
        processor_class="LlavaOnevisionProcessor",
        num_image_tokens=SIGLIP_PATCHES,
        vision_feature_select_strategy="full",
        image_token=IMAGE_TOKEN,
    )


#: LLaVA-OneVision: LLaVA-NeXT's crops and newline rows on a SigLIP tower and a Qwen2 text model, the tiles pooled
#: down where an image has more than `anyres_max_9` allows.
ENTRIES = (
    Entry(
        "llava_onevision",
        "llava_onevision",
        llava_config(image_grid_pinpoints=GRID),
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
