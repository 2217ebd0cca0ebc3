from ..entry import Entry
from .gemma2 import GEMMA_SHAPE

ENTRIES = (
    Entry(
        "gemma3_text",
        "gemma3_text",
        {
            **GEMMA_SHAPE,
            "num_hidden_layers": 2,
            "layer_types": ["sliding_attention", "full_attention"],
            "query_pre_attn_scalar": 24,
            "final_logit_softcapping": 3.0,
            "attn_logit_softcapping": 5.0,
        },
    ),
)
