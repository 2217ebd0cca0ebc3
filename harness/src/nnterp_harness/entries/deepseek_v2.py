from ..entry import LATENT_ATTENTION_SHAPE, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE

ENTRIES = (
    Entry(
        "deepseek_v2",
        "deepseek_v2",
        {
            **GROUPED_SIGMOID_MOE,
            "topk_method": "group_limited_greedy",
            "norm_topk_prob": False,
            **LATENT_ATTENTION_SHAPE,
        },
    ),
)
