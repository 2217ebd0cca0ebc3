from ..entry import INIT_STD, Entry

#: Falcon-Mamba in miniature: two mixer blocks, a 128-channel scan with an 8-number state per channel.
FALCON_MAMBA_SHAPE = {
    "hidden_size": 64,
    "state_size": 8,
    "num_hidden_layers": 2,
    "expand": 2,
    "conv_kernel": 4,
    "time_step_rank": 8,
    "use_mambapy": False,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
    "mixer_rms_eps": 1e-5,
}

ENTRIES = (Entry("falcon_mamba", "falcon_mamba", FALCON_MAMBA_SHAPE, init_in_float64=True),)
