from ..entry import GROUPED_LLAMA_SHAPE, Entry

#: The tiny shape of the post-norm entries: two blocks, the head tied to the embedding to stay small.
OLMO_SHAPE = {**GROUPED_LLAMA_SHAPE, "num_hidden_layers": 2, "tie_word_embeddings": True}

ENTRIES = (Entry("olmo2", "olmo2", OLMO_SHAPE),)
