from ..entry import LATENT_ATTENTION_SHAPE, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE

ENTRIES = (
    Entry(
        "axk1",
        "axk1",
        {
            **GROUPED_SIGMOID_MOE,
            **LATENT_ATTENTION_SHAPE,
        },
    ),
)
