from ..entry import Entry
from .qwen3_5_text import QWEN3_5_SHAPE

#: Qwen3.5-MoE in miniature: Qwen3.5's two blocks (a gated DeltaNet, then a gated-query attention), both mixtures.
QWEN3_5_MOE_SHAPE = {
    **{key: value for key, value in QWEN3_5_SHAPE.items() if key != "intermediate_size"},
    "moe_intermediate_size": 32,
    "shared_expert_intermediate_size": 48,
    "num_experts": 4,
    "num_experts_per_tok": 2,
}

ENTRIES = (Entry("qwen3_5_moe_text", "qwen3_5_moe_text", QWEN3_5_MOE_SHAPE),)
