from ..entry import LATENT_ATTENTION_SHAPE, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE

ENTRIES = (
    Entry(
        "sarvam_mla",
        "sarvam_mla",
        {
            **GROUPED_SIGMOID_MOE,
            **LATENT_ATTENTION_SHAPE,
            # Queries straight from the stream, as the released checkpoints project them.
            "q_lora_rank": None,
        },
    ),
)
