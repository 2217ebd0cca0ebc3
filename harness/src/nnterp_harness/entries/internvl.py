from ..entry import Entry
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, ProcessorParts, chat_template, with_image_tokens
from .llava import QWEN2_TEXT, llava_config

#: InternViT shrunk as SigLIP is: two blocks of width 32 over a 32-pixel image of 8-pixel patches.
INTERN_VIT = {
    "model_type": "internvl_vision",
    **{key: value for key, value in SIGLIP_TOWER.items() if key != "vision_use_head"},
    "layer_scale_init_value": 0.5,
}
#: The pixel shuffle: each image's 4x4 patches become 2x2 image tokens.
DOWNSAMPLE = 0.5
#: The image tokens of one image.
IMAGE_TOKENS = int((SIGLIP_TOWER["image_size"] // SIGLIP_TOWER["patch_size"]) ** 2 * DOWNSAMPLE**2)
#: The tokenizer's named image tokens InternVL's processor reads.
NAMED = {
    "start_image_token": "<|vision_start|>",
    "end_image_token": "<|vision_end|>",
    "context_image_token": IMAGE_TOKEN,
    "video_token": "<|video_pad|>",
}


def _processor(tokenizer, config):
    from transformers.models.got_ocr2.image_processing_pil_got_ocr2 import GotOcr2ImageProcessorPil

    side = config.vision_config.image_size[0]
    # One tile per image: no crops beside the whole.
    images = GotOcr2ImageProcessorPil(
        size={"height": side, "width": side}, min_patches=1, max_patches=1, image_mean=[0.5] * 3, image_std=[0.5] * 3
    )
    return ProcessorParts(
        with_image_tokens(tokenizer, **NAMED),
        images,
        chat_template(IMAGE_TOKEN),
        processor_class="InternVLProcessor",
        image_seq_length=IMAGE_TOKENS,
    )


#: InternVL 3: InternViT (a CLS token, layer-scaled blocks), a pixel shuffle and an MLP projector, on a Qwen2 text model.
ENTRIES = (
    Entry(
        "internvl",
        "internvl",
        {
            **llava_config(QWEN2_TEXT, INTERN_VIT, vision_feature_select_strategy="default"),
            "downsample_ratio": DOWNSAMPLE,
            "image_seq_length": IMAGE_TOKENS,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
