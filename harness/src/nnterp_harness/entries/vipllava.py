from ..entry import Entry
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER
from .llava import CLIP_VISION, LLAMA_TEXT, SIGLIP_PATCHES, llava_config, llava_processor

#: The blocks whose streams the projector joins: the last two of the tiny tower's.
FEATURE_LAYERS = [-2, -1]


def _images(config):
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

    side = config.vision_config.image_size
    return CLIPImageProcessorPil(size={"shortest_edge": side}, crop_size={"height": side, "width": side})


def _name_the_layers_twice(config):
    # transformers 5.24 saves `vision_feature_layer`; 5.17 and 5.20 read `vision_feature_layers`
    # and fall back to five default blocks the tiny tower does not have.
    config.__dict__["vision_feature_layers"] = list(FEATURE_LAYERS)


#: ViP-LLaVA: a CLIP tower on a Llama (Vicuna) text model, the projector fed several blocks' streams, CLS dropped.
ENTRIES = (
    Entry(
        "vipllava",
        "vipllava",
        llava_config(LLAMA_TEXT, CLIP_VISION, image_seq_length=SIGLIP_PATCHES, vision_feature_layers=FEATURE_LAYERS),
        configure=_name_the_layers_twice,
        auto_class="AutoModelForImageTextToText",
        processor=llava_processor(
            "LlavaProcessor",
            _images,
            patch_size=SIGLIP_TOWER["patch_size"],
            vision_feature_select_strategy="default",
            num_additional_image_tokens=1,
            image_token=IMAGE_TOKEN,
        ),
    ),
)
