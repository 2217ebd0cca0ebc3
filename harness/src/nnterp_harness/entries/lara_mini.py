from ..entry import Entry
from .qwen3_5_text import QWEN3_5_SHAPE

#: Lara-mini in miniature: one block of each kind (a gated DeltaNet, a sliding-window and a position-free full
#: attention), every one a mixture; the window covers the test prompts and their decode steps.
LARA_MINI_SHAPE = {
    **{key: value for key, value in QWEN3_5_SHAPE.items() if key != "intermediate_size"},
    "num_hidden_layers": 3,
    "layer_types": ["linear_attention", "sliding_attention", "full_attention"],
    "sliding_window": 8,
    "moe_intermediate_size": 24,
    "shared_expert_intermediate_size": 32,
    "num_experts": 4,
    "num_experts_per_tok": 2,
    "norm_topk_prob": True,
}

ENTRIES = (Entry("lara_mini", "lara_mini", LARA_MINI_SHAPE),)
