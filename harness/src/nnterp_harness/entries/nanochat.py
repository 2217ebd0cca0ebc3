from ..entry import GROUPED_LLAMA_SHAPE, Entry

#: NanoChat's block is Llama's with weightless norms and a relu² MLP; the softcap is moved off 15 so a lost cap shows.
ENTRIES = (
    Entry("nanochat", "nanochat", {**GROUPED_LLAMA_SHAPE, "final_logit_softcapping": 3.0, "tie_word_embeddings": True}),
)
