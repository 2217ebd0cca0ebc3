from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: RecurrentGemma in miniature: an RG-LRU block, a local-attention block, then another RG-LRU block; a 64-channel
#: recurrence in 4 gate blocks, and a window wider than the suite's prompts.
RECURRENT_GEMMA_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 192,
    "num_hidden_layers": 3,
    "block_types": ["recurrent", "attention"],
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "lru_width": 64,
    "conv1d_width": 4,
    "attention_window_size": 32,
    "logits_soft_cap": 30.0,
    "max_position_embeddings": MAX_POSITIONS,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("recurrent_gemma", "recurrent_gemma", RECURRENT_GEMMA_SHAPE, init_in_float64=True),)
