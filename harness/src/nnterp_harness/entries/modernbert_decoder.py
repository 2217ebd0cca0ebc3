from ..entry import INIT_STD, MAX_POSITIONS, Entry
from ..tokenizer import special_token_ids

#: Block 0 (no attention norm), a sliding block with a window shorter than the suite's long prompt, and a global one.
ENTRIES = (
    Entry(
        "modernbert_decoder",
        "modernbert-decoder",
        {
            "hidden_size": 64,
            "intermediate_size": 96,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "max_position_embeddings": MAX_POSITIONS,
            "local_attention": 8,
            "layer_types": ["full_attention", "sliding_attention", "full_attention"],
            "initializer_range": INIT_STD,
            "cls_token_id": special_token_ids()["bos_token_id"],
            "sep_token_id": special_token_ids()["eos_token_id"],
        },
    ),
)
