from ..entry import Entry

#: RWKV-4 in miniature: three blocks (block 0 norms the embeddings first), a 64-channel time-mix and a 128-wide
#: channel-mix; the stream is halved after every second block, as `rescale_every` does on the released checkpoints.
RWKV_SHAPE = {
    "hidden_size": 64,
    "attention_hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 3,
    "context_length": 256,
    "rescale_every": 2,
    "tie_word_embeddings": False,
}

ENTRIES = (Entry("rwkv", "rwkv", RWKV_SHAPE, init_in_float64=True),)
