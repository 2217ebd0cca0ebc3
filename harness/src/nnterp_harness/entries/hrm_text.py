from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: One block per stack, two high cycles of one low cycle each: every block runs twice, and the
#: config's `num_hidden_layers` becomes the 1 * 2 * (1 + 1) = 4 cache slots of the forward.
HRM_TEXT_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 1,
    "num_attention_heads": 4,
    "head_dim": 16,
    "H_cycles": 2,
    "L_cycles": 1,
    "L_bp_cycles": [1],
    "embedding_scale": 3.0,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("hrm_text", "hrm_text", HRM_TEXT_SHAPE),)
