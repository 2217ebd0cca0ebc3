from ..entry import Entry
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .llava import CLIP_VISION, LLAMA_TEXT, llava_config
from .llava_next_video import VIDEO_TOKEN


def _processor(tokenizer, config):
    from transformers import VideoLlavaImageProcessor

    side = config.vision_config.image_size
    images = VideoLlavaImageProcessor(size={"shortest_edge": side}, crop_size={"height": side, "width": side})
    return ProcessorParts(
        with_image_tokens(tokenizer),
        images,
        chat_template(IMAGE_TOKEN),
        processor_class="VideoLlavaProcessor",
        patch_size=SIGLIP_TOWER["patch_size"],
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
        image_token=IMAGE_TOKEN,
        video_token=VIDEO_TOKEN,
    )


#: Video-LLaVA: separate CLIP towers for images and videos (CLS dropped) under one projector, on a Llama (Vicuna)
#: text model.
ENTRIES = (
    Entry(
        "video_llava",
        "video_llava",
        llava_config(
            LLAMA_TEXT,
            CLIP_VISION,
            vision_feature_select_strategy="default",
            video_token_id=image_token_id(VIDEO_TOKEN),
        ),
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
