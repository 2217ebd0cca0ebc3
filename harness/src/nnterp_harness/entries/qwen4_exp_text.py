from ..entry import COMMON, Entry
from .qwen3_5_text import QWEN3_5_SHAPE

#: Qwen4-Exp in miniature: two hyper-connection streams over an indexed attention block, then a gated DeltaNet block
#: that carries the per-layer n-gram embedding; both are mixtures with a gated shared expert. The indexer keeps two
#: blocks of two tokens (plus the open tail) per query, so the test prompts' patterns are sparse; the n-gram tables
#: are shrunk to a few dozen rows per head.
QWEN4_EXP_SHAPE = {
    **{key: value for key, value in QWEN3_5_SHAPE.items() if key != "intermediate_size"},
    "layer_types": ["indexed_attention", "linear_attention"],
    "hc_count": 2,
    "hc_lowrank": 8,
    "ple_layer_ids": [2],
    "ple_embed_dim": 16,
    "ngram_size": 3,
    "heads_per_ngram": 2,
    "ngram_vocab_size_base": 31,
    "make_ngram_vocab_size_divisible_by": 8,
    "indexer_n_heads": 2,
    "indexer_kv_heads": 1,
    "indexer_head_dim": 16,
    "indexer_budget": 4,
    "indexer_compress_ratio": 2,
    "moe_intermediate_size": 24,
    "shared_expert_intermediate_size": 32,
    "num_experts": 4,
    "num_experts_per_tok": 2,
    "norm_topk_prob": True,
}


def indexed_attention_unsupported() -> str | None:
    """Why this release cannot build this Qwen4-Exp config, or `None`.

    The checkpoint's config names its attention blocks `indexed_attention`, the name
    transformers 5.20 and later give them; transformers 5.17 calls them
    `qwen_sparse_attention` and its config validation rejects the other name. (The
    released checkpoints spell them `full_attention`, which every release renames on
    load, but a config that says so cannot be saved: the validation runs on save.)
    """
    import nnsight  # noqa: F401  - before any transformers modeling module
    from transformers import AutoConfig

    try:
        AutoConfig.for_model("qwen4_exp_text", **{**COMMON, **QWEN4_EXP_SHAPE})
    except Exception as error:  # the strict config wraps the ValueError in its own validation error
        return f"this transformers release cannot build this Qwen4-Exp config: {error}".replace("\n", " ")
    return None


ENTRIES = (Entry("qwen4_exp_text", "qwen4_exp_text", QWEN4_EXP_SHAPE, cannot_run=indexed_attention_unsupported),)
