from ..entry import Entry
from .olmo2 import OLMO_SHAPE

ENTRIES = (
    Entry(
        "exaone4",
        "exaone4",
        {**OLMO_SHAPE, "sliding_window": 128, "layer_types": ["sliding_attention", "full_attention"]},
    ),
)
