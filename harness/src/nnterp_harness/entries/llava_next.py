from ..entry import Entry
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER
from .llava import llava_config, llava_processor

#: The one any-resolution grid: a square image becomes its resized whole plus one tile of the same side.
GRID = [[SIGLIP_TOWER["image_size"], SIGLIP_TOWER["image_size"]]]


def _images(config):
    from transformers.models.llava_next.image_processing_pil_llava_next import LlavaNextImageProcessorPil

    side = config.vision_config.image_size
    return LlavaNextImageProcessorPil(
        size={"shortest_edge": side},
        crop_size={"height": side, "width": side},
        image_grid_pinpoints=config.image_grid_pinpoints,
        image_mean=[0.5, 0.5, 0.5],
        image_std=[0.5, 0.5, 0.5],
    )


#: LLaVA-NeXT (llava-next-72b's layout, a SigLIP tower for CLIP): the any-resolution crops, unpadded, with a
#: learned newline row after each row of tile patches, on a Qwen2 text model.
ENTRIES = (
    Entry(
        "llava_next",
        "llava_next",
        llava_config(image_grid_pinpoints=GRID),
        auto_class="AutoModelForImageTextToText",
        processor=llava_processor(
            "LlavaNextProcessor",
            _images,
            patch_size=SIGLIP_TOWER["patch_size"],
            vision_feature_select_strategy="full",
            image_token=IMAGE_TOKEN,
        ),
    ),
)
