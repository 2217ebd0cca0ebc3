"""RoFormer (`roformer`), end to end: BERT's post-LN blocks, their attention rotating queries and keys itself."""

import pytest
import torch

from nnterp import StandardizedTransformer, Unavailable
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness import locate
from nnterp_harness.encoder import MASKED
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("roformer")


def rotated(sinusoidal, tensor):
    """`tensor` `[batch, heads, seq, head_dim]` rotated pairwise by the sinusoidal table `[seq, head_dim]`, sin first."""
    sin, cos = sinusoidal.chunk(2, dim=-1)
    sin = torch.stack([sin, sin], dim=-1).reshape_as(sinusoidal)
    cos = torch.stack([cos, cos], dim=-1).reshape_as(sinusoidal)
    half = torch.stack([-tensor[..., 1::2], tensor[..., ::2]], dim=-1).reshape_as(tensor)
    return tensor * cos + half * sin


def projections(m, index):
    """Block `index`'s queries, keys and values straight off its projections, heads first, before any rotation."""
    attention = m.layers[index].self_attn
    heads = attention.num_heads

    def split(value):
        return value.unflatten(-1, (heads, -1)).transpose(1, 2)

    inner = attention.self
    return split(inner.q_proj.output), split(inner.k_proj.output), split(inner.v_proj.output)


class TestRoFormer(FamilySuite):
    CHECKPOINT = "roformer"
    FAMILY = FAMILY
    NATIVE = rows(
        "roformer",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head="cls",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.predictions.decoder"

    def test_queries_and_keys_are_the_rotated_projections(self, model):
        # Two passes over the same prompt: the projections, then the values the products read.
        def before(m):
            return (m.roformer.encoder.embed_positions.output, *projections(m, 0))

        def entering(m):
            attention = m.layers[0].self_attn
            return attention.attention_queries, attention.attention_keys, attention.attention_values

        table, q, k, v = run(model, before)
        queries, keys, values = run(model, entering)
        table = table.reshape(table.shape[-2:])
        assert not torch.equal(queries, q), "the queries are not rotated"
        assert torch.equal(queries, rotated(table, q))
        assert torch.equal(keys, rotated(table, k))
        assert torch.equal(values, v), "the values rotate without rotary_value"

    def test_scores_are_the_scaled_product(self, model):
        def body(m):
            attention = m.layers[1].self_attn
            return attention.attention_queries, attention.attention_keys, attention.attention_scores

        queries, keys, scores = run(model, body)
        assert torch.allclose(scores, queries @ keys.transpose(-1, -2) / queries.shape[-1] ** 0.5, atol=1e-6)

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.roformer.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert not hasattr(model.roformer._module, "embeddings_project")
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"


class TestRoFormerNarrow:
    """The small released shape: a token table narrower than the stream, projected before block 0, rotary values."""

    @pytest.fixture(scope="class")
    def model(self):
        path = locate.checkpoint_path("roformer_narrow")
        return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")

    def test_block_zero_reads_the_projection(self, model):
        def body(m):
            return m.roformer.embeddings.output, m.roformer.embeddings_project.output, m.layers[0].layer_input

        summed, projected, entering = run(model, body, MASKED)
        assert summed.shape[-1] == model.config.embedding_size < model.hidden_size
        assert torch.equal(projected, entering)

    def test_token_embeddings_are_unavailable(self, model):
        assert "embedding_size=32" in model.support()["token_embeddings"]
        with pytest.raises(Unavailable, match="layers\\[0\\].layer_input"):
            with model.trace(MASKED):
                model.token_embeddings.save()

    def test_values_are_rotated(self, model):
        def before(m):
            return m.roformer.encoder.embed_positions.output, projections(m, 0)[2]

        table, v = run(model, before, MASKED)
        values = run(model, lambda m: m.layers[0].self_attn.attention_values, MASKED)
        assert torch.equal(values, rotated(table.reshape(table.shape[-2:]), v))

    def test_the_lens_on_the_last_block_is_the_logits(self, model):
        def body(m):
            return m.project_on_vocab(m.layers[-1].layer_output), m.logits, m.mask_token_probs

        lens, logits, probs = run(model, body, MASKED)
        assert torch.equal(lens, logits)
        assert tuple(probs.shape) == (1, model.vocab_size)
