from ..entry import Entry
from ..vision import image_token_id
from .inkling2 import INKLING2_TOWER, WRAPPED_TEXT, inkling2_parts
from .inkling2_loop_text import INKLING2_LOOP_SHAPE

#: Inkling 2 Loop: Inkling 2's packed ViT and 2x2 merger, the same processor, on the looped Inkling 2 text model.
ENTRIES = (
    Entry(
        "inkling2_loop",
        "inkling2_loop",
        {
            "text_config": {**INKLING2_LOOP_SHAPE, **WRAPPED_TEXT},
            "vision_config": INKLING2_TOWER,
            "image_token_id": image_token_id(),
        },
        auto_class="AutoModelForImageTextToText",
        processor=inkling2_parts,
    ),
)
