"""DeBERTa (`deberta`), end to end: a post-LN encoder with disentangled attention, its blocks regrouped."""

import pytest
import torch
import transformers

from nnterp import StandardizedTransformer
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness import locate
from nnterp_harness.helpers import with_config
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("deberta")


class TestDeberta(FamilySuite):
    CHECKPOINT = "deberta"
    FAMILY = FAMILY
    NATIVE = rows(
        "deberta",
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
    # The keys are one of the three views `chunk` cuts from the fused in-projection's output.
    REFUSES_IN_PLACE = ("attention_keys",)

    def test_regrouping_moves_registrations_only(self, model, raw_model):
        # The block still calls its feed-forward modules by their old names, and every parameter is kept, once.
        block = model.layers[0]._module
        assert block.attention.output is block.attention.self_output
        assert callable(block.intermediate) and callable(block.output)
        ours = sorted(p.numel() for p in model._module.parameters())
        assert ours == sorted(p.numel() for p in raw_model._module.parameters())
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_scores_sum_the_content_and_position_terms(self, model):
        def body(m):
            inner = m.layers[0].self_attn.self
            keys = m.layers[0].self_attn.attention_keys  # the chunk the queries' bias add follows
            queries = m.layers[0].self_attn.attention_queries
            position = inner.source.rel_att_1.output
            return queries, keys, position, m.layers[0].self_attn.attention_scores

        queries, keys, position, scores = run(model, body)
        scale = (queries.shape[-1] * 3) ** 0.5  # content, content-to-position, position-to-content
        content = (queries / scale) @ keys.transpose(-1, -2)
        assert float(position.abs().max()) > 0, "the relative-position terms are zero"
        assert torch.allclose(scores, content + position, atol=1e-5), "the scores are not q·k plus the position terms"
        assert not torch.allclose(scores, content, atol=1e-3)

    def test_a_key_edit_reaches_the_position_term(self, model):
        # The keys are repacked into the tuple the forward unpacks, so the position-to-content term reads the edit.
        def position(m, edit):
            attn = m.layers[0].self_attn
            if edit:
                attn.attention_keys = attn.attention_keys * 0
            return attn.self.source.rel_att_1.output

        clean, edited = run(model, lambda m: position(m, False)), run(model, lambda m: position(m, True))
        assert not torch.allclose(clean, edited), "zeroed keys left the position term unchanged"

    def test_relative_positions_are_one_table(self, model):
        # Every block reads the encoder's one relative-position table; block 0's has no copy of its own.
        encoder = model._module.deberta.encoder
        assert encoder.rel_embeddings.weight.shape[0] == 2 * model.config.max_position_embeddings
        assert not any("rel_embeddings" in name for name, _ in model.layers[0]._module.named_parameters())


@pytest.fixture(scope="module")
def newer_head(tmp_path_factory):
    # The newer head (`lm_predictions`) and the talking heads, which no released checkpoint uses; the head's
    # weights are drawn at load, which the checks below do not depend on.
    path = with_config(
        locate.checkpoint_path("deberta"), tmp_path_factory.mktemp("deberta_newer"), legacy=False, talking_head=True
    )
    try:
        return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")
    except AttributeError as error:  # transformers 5.17 ties the newer head to a `weight` it does not have
        pytest.skip(f"transformers {transformers.__version__} cannot load DeBERTa's newer head: {error}")


def test_newer_head_logit_lens_is_the_logits(newer_head):
    assert "lm_predictions" in newer_head._module._modules

    def body(m):
        return m.project_on_vocab(m.layers[-1].layer_output), m.logits

    lens, logits = run(newer_head, body)
    assert torch.equal(lens, logits)


def test_talking_heads_have_no_pattern(newer_head):
    support = newer_head.support(layer=0)
    for key in ("self_attn.attention_scores", "self_attn.attention_probabilities"):
        assert "talking-heads" in support[key], support[key]
    assert support["self_attn.attention_queries"] is None
