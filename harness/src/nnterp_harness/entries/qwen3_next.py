from ..entry import Entry
from .qwen3_5_text import QWEN3_5_SHAPE

#: Qwen3-Next in miniature: Qwen3.5's two blocks (a gated DeltaNet, then a gated-query attention), both with a mixture.
QWEN3_NEXT_SHAPE = {
    **QWEN3_5_SHAPE,
    "moe_intermediate_size": 32,
    "shared_expert_intermediate_size": 48,
    "num_experts": 4,
    "num_experts_per_tok": 2,
    "norm_topk_prob": True,
    "decoder_sparse_step": 1,
}

ENTRIES = (Entry("qwen3_next", "qwen3_next", QWEN3_NEXT_SHAPE),)
