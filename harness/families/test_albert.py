"""ALBERT (`albert`), end to end: one post-LN block shared by every application, one `layers` entry per application."""

import torch
from transformers import AutoModelForMaskedLM, AutoTokenizer

from nnterp_harness.encoder import MASKED
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("albert")


class TestAlbert(FamilySuite):
    CHECKPOINT = "albert"
    FAMILY = FAMILY
    NATIVE = rows(
        "albert",
        "encoder.layers",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.LayerNorm",
        head="predictions",
    )
    EXPECTED_UNAVAILABLE = {**POST_LN_UNAVAILABLE, "token_embeddings": "embeddings are factorized"}
    EMBEDDING_WIDTH_KEY = "embedding_size"
    OUTPUT_NORM = "full_layer_layer_norm"
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_applications_share_one_blocks_weights(self, model, raw_model):
        # The decision: one entry per application, each its own modules, every one holding the shared tensors.
        config = model.config
        assert len(model.layers) == config.num_hidden_layers * config.inner_group_num
        blocks = [block._module for block in model.layers]
        assert len({id(block) for block in blocks}) == len(blocks), "two applications share a module"
        shared = raw_model.albert.encoder.albert_layer_groups[0].albert_layers[0]._module
        for block in blocks:
            assert block.attention.query.weight is blocks[0].attention.query.weight
            assert block.mlp.ffn.weight is blocks[0].mlp.ffn.weight
            assert block.full_layer_layer_norm.weight.shape == shared.full_layer_layer_norm.weight.shape
        ours = sorted(p.numel() for p in model._module.parameters())
        assert ours == sorted(p.numel() for p in raw_model._module.parameters()), "a parameter is copied"

    def test_renamed_model_equals_raw_model(self, model, checkpoint):
        # The raw model has no entry per application: transformers' hidden states hold each application's output.
        reference = AutoModelForMaskedLM.from_pretrained(str(checkpoint), attn_implementation="eager").eval()
        ids = AutoTokenizer.from_pretrained(str(checkpoint))(MASKED, return_tensors="pt")
        with torch.no_grad():
            expected = reference(**ids, output_hidden_states=True)
        count = len(model.layers)

        def body(m):
            return [m.layers[i].layer_output for i in range(count)] + [m.logits]

        got = run(model, body, MASKED)
        for index in range(count):
            assert torch.equal(got[index], expected.hidden_states[index + 1]), f"application {index} differs"
        assert torch.equal(got[-1], expected.logits)

    def test_an_edit_reaches_one_application_only(self, model):
        # Application 1's output moves under an edit of its MLP; application 0 runs the same weights untouched.
        def clean(m):
            return m.layers[0].layer_output, m.layers[1].layer_output

        def edited(m):
            first = m.layers[0].layer_output
            m.layers[1].mlp.mlp_output[:] = 0
            return first, m.layers[1].layer_output

        (first, second), (first_edited, second_edited) = run(model, clean), run(model, edited)
        assert torch.equal(first, first_edited)
        assert not torch.equal(second, second_edited)

    def test_block_zero_reads_the_projected_embeddings(self, model):
        def body(m):
            return m.embed_tokens.output, m.albert.encoder.embedding_hidden_mapping_in.output, m.layers[0].layer_input

        tokens, projected, entering = run(model, body)
        assert tokens.shape[-1] == model.config.embedding_size != model.hidden_size
        assert torch.equal(projected, entering)
