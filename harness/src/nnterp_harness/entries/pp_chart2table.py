from ..entry import Entry
from ..vision import WRAPPED_VOCAB, chat_template, with_image_tokens
from .got_ocr2 import GOT_OCR2_TOWER, GOT_TOKENS, TOKENS_PER_IMAGE
from .llava import QWEN2_TEXT

#: What the chat template writes for each image: PP-Chart2Table's processor expands nothing, so the template
#: spells every image token between the image's start and end tokens.
IMAGE_PROMPT = "<img>" + "<imgpad>" * TOKENS_PER_IMAGE + "</img>"


def _processor(tokenizer, config):
    from transformers import PPChart2TableProcessor
    from transformers.models.pp_chart2table.image_processing_pil_pp_chart2table import (
        PPChart2TableImageProcessorPil,
    )

    side = config.vision_config.image_size
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(GOT_TOKENS), special_tokens=True)
    images = PPChart2TableImageProcessorPil(size={"height": side, "width": side})
    return PPChart2TableProcessor(
        image_processor=images, tokenizer=tokenizer, chat_template=chat_template(IMAGE_PROMPT)
    )


#: PP-Chart2Table: GOT-OCR2's model class (a SAM tower with a convolutional neck, two strided convolutions as
#: projector, a Qwen2 text model) under its own config type, with a processor that leaves the image tokens to the
#: chat template.
ENTRIES = (
    Entry(
        "pp_chart2table",
        "pp_chart2table",
        {
            "text_config": {**QWEN2_TEXT, "vocab_size": QWEN2_TEXT["vocab_size"] + len(GOT_TOKENS)},
            "vision_config": GOT_OCR2_TOWER,
            "image_token_index": WRAPPED_VOCAB + GOT_TOKENS.index("<imgpad>"),
            "image_seq_length": TOKENS_PER_IMAGE,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
