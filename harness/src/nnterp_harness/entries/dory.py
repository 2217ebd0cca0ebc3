from ..entry import GROUPED_LLAMA_SHAPE, Entry

#: One input block, one looped block that runs three times, one output block; a sliding block before and after the
#: full-attention loop.
DORY_SHAPE = {
    **GROUPED_LLAMA_SHAPE,
    "head_dim": 16,
    "layer_types": ["sliding_attention", "full_attention", "sliding_attention"],
    "sliding_window": 128,
    "n_input_layers": 1,
    "n_recurrent_layers": 1,
    "n_output_layers": 1,
    "n_recurrent_loops": 3,
    "ngpt_alpha_init": 0.3,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("dory", "dory", DORY_SHAPE),)
