from ..entry import Entry
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .llava import CLIP_VISION, LLAMA_TEXT, llava_config
from .llava_next import GRID, _images

#: The placeholder of a video; the tiny checkpoint is tested on images only.
VIDEO_TOKEN = "<|video_pad|>"


def _processor(tokenizer, config):
    return ProcessorParts(
        with_image_tokens(tokenizer),
        _images(config),
        chat_template(IMAGE_TOKEN),
        processor_class="LlavaNextVideoProcessor",
        patch_size=SIGLIP_TOWER["patch_size"],
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
        image_token=IMAGE_TOKEN,
        video_token=VIDEO_TOKEN,
    )


#: LLaVA-NeXT-Video: LLaVA-NeXT's crops and newline rows on a CLIP tower (CLS dropped) and a Llama (Vicuna)
#: text model, with a pooled video path beside the image path.
ENTRIES = (
    Entry(
        "llava_next_video",
        "llava_next_video",
        llava_config(
            LLAMA_TEXT,
            CLIP_VISION,
            image_grid_pinpoints=GRID,
            vision_feature_select_strategy="default",
            video_token_id=image_token_id(VIDEO_TOKEN),
        ),
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
