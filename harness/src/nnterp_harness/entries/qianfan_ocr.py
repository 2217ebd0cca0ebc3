from ..entry import Entry
from ..vision import IMAGE_TOKEN, chat_template, image_token_id, with_image_tokens
from .internvl import DOWNSAMPLE, IMAGE_TOKENS, INTERN_VIT
from .llava import QWEN3_TEXT

#: The tokenizer's named image tokens Qianfan-OCR's processor reads; `<image>` is the template's placeholder.
NAMED = {
    "start_image_token": "<|vision_start|>",
    "end_image_token": "<|vision_end|>",
    "context_image_token": "<|image_pad|>",
}


def _processor(tokenizer, config):
    from transformers import QianfanOCRProcessor
    from transformers.models.got_ocr2.image_processing_pil_got_ocr2 import GotOcr2ImageProcessorPil

    side = config.vision_config.image_size[0]
    # One tile per image: no crops beside the whole.
    images = GotOcr2ImageProcessorPil(
        size={"height": side, "width": side}, min_patches=1, max_patches=1, image_mean=[0.5] * 3, image_std=[0.5] * 3
    )
    return QianfanOCRProcessor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer, **NAMED),
        image_seq_length=IMAGE_TOKENS,
        chat_template=chat_template(IMAGE_TOKEN),
        image_placeholder_token=IMAGE_TOKEN,
    )


#: Qianfan-OCR: InternVL's line (a CLS token, layer-scaled blocks, a pixel shuffle, an MLP projector) on Qwen3.
ENTRIES = (
    Entry(
        "qianfan_ocr",
        "qianfan_ocr",
        {
            "text_config": QWEN3_TEXT,
            "vision_config": {**INTERN_VIT, "model_type": "qianfan_ocr_vision", "drop_path_rate": 0.0},
            "image_token_id": image_token_id("<|image_pad|>"),
            "downsample_ratio": DOWNSAMPLE,
            "image_seq_length": IMAGE_TOKENS,
            "vision_feature_layer": -1,
            "vision_feature_select_strategy": "default",
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
