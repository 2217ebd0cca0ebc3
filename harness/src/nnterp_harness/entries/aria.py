from typing import Any

from ..entry import INIT_STD, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens
from .aria_text import ENTRIES as TEXT_ENTRIES
from .aria_text import redraw, routing_unsupported

#: The side every image is resized and padded to: the smaller of the two the image processor accepts (490, 980).
SIDE = 490
#: Idefics 3's tower shrunk to two blocks of width 16; 35-pixel patches make a 14x14 grid
#: at Aria's smallest side, with a patch convolution that still fits the size budget.
ARIA_TOWER: dict[str, Any] = {
    "model_type": "idefics3_vision",
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "image_size": SIDE,
    "patch_size": 35,
    "attention_dropout": 0.0,
}
#: The patches of one image, and the learned queries the projector turns them into (one image token each).
PATCHES = (SIDE // ARIA_TOWER["patch_size"]) ** 2
QUERIES = 4


def _processor(tokenizer, config):
    from transformers import AriaProcessor
    from transformers.models.aria.image_processing_pil_aria import AriaImageProcessorPil

    tokenizer = with_image_tokens(tokenizer, image_token=IMAGE_TOKEN)
    # The processor hands its image processor its own default side (980) on every call, over the image
    # processor's setting; a tokenizer init argument is the saved setting it ranks above that default.
    tokenizer.init_kwargs["max_image_size"] = SIDE
    return AriaProcessor(
        image_processor=AriaImageProcessorPil(max_image_size=SIDE),
        tokenizer=tokenizer,
        chat_template=chat_template(IMAGE_TOKEN),
        size_conversion={SIDE: QUERIES},
    )


#: Aria: Idefics 3's tower, a projector of learned queries cross-attending to the patches, on Aria's mixture text
#: model; the scatter is in `AriaModel`.
ENTRIES = (
    Entry(
        "aria",
        "aria",
        {
            "text_config": {
                "model_type": "aria_text",
                **TEXT_ENTRIES[0].overrides,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
            },
            "vision_config": ARIA_TOWER,
            "projector_patch_to_query_dict": {PATCHES: QUERIES},
            "image_token_id": image_token_id(),
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
        prepare=redraw,
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        unserved=routing_unsupported,
    ),
)
