"""CTRL, end to end: every name renamed, and an MLP that is a bare `nn.Sequential`."""

import math

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, moved, rows, run

FAMILY = family("ctrl")


class TestCTRL(FamilySuite):
    CHECKPOINT = "ctrl"
    FAMILY = FAMILY
    NATIVE = rows(
        "transformer",
        "h",
        "w",
        "layernorm",
        attn="multi_head_attention",
        ln1="layernorm1",
        ln2="layernorm2",
        mlp="ffn",
    )
    MLP_WIDTH_KEY = "dff"

    def test_the_sequential_children_answer_to_standard_names(self, model):
        block = model.layers[0]
        assert block.mlp.act_fn is model.get("transformer.h.0.ffn.1")
        assert block.mlp.down_proj is model.get("transformer.h.0.ffn.2")
        assert block.self_attn.o_proj is model.get("transformer.h.0.multi_head_attention.dense")

    # CTRL's model scales the embedding module's output in place (`inputs_embeds *=
    # sqrt(n_embd)`), so the tensor read there holds the scaled values once the forward
    # has moved on; the suite's check takes its CTRL form.

    def test_token_embeddings_are_the_embedding_output(self, model, clean):
        ids, value, raw, copy = run(
            model, lambda m: (m.input_ids, m.token_embeddings, m.embed_tokens.output, m.token_embeddings.clone())
        )
        assert torch.equal(value, raw)
        assert tuple(value.shape) == (1, ids.shape[1], model.hidden_size)
        assert torch.equal(model.embed_tokens(ids), copy), "a copy taken in the trace is not the embedding of the ids"
        assert torch.equal(copy * math.sqrt(model.hidden_size), value), "the model did not scale the read tensor"

        def body(m):
            m.token_embeddings = m.token_embeddings * 0
            return m.logits

        assert moved(run(model, body), clean["logits"]), "assigning token_embeddings did not move the logits"
