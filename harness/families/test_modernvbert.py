"""ModernVBERT (`modernvbert`), end to end: the ModernBERT text model inside a vision wrapper, served as an encoder."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("modernvbert")


class TestModernVBert(FamilySuite):
    CHECKPOINT = "modernvbert"
    FAMILY = FAMILY
    NATIVE = rows(
        "model.text_model",
        "layers",
        "embeddings.tok_embeddings",
        "final_norm",
        attn="attn",
        ln1="attn_norm",
        ln2="mlp_norm",
    )
    # Stated, not inherited: `FamilySuite`'s own merged table holds a decoder's unavailable mask values.
    EXPECTED_UNAVAILABLE = {}
    NEURONS_FROM_ACTIVATION = False
    # The values are one of `unbind`'s views of the fused projection, which torch refuses to edit in place.
    REFUSES_IN_PLACE = ("attention_values",)

    def test_the_head_transforms_before_it_projects(self, model):
        def body(m):
            return m.final_norm_output, m.projection_head.output, m.lm_head_output, m.logits

        final, transformed, projected, logits = run(model, body)
        assert transformed.shape[-1] == model.hidden_size, "projection_head is not the stream-wide prediction head"
        assert torch.equal(projected, model.lm_head._module(transformed)), "lm_head_output is not lm_head(head(...))"
        assert torch.equal(projected, logits)
        assert not torch.equal(final, transformed)

    def test_a_text_prompt_runs_no_tower(self, model):
        calls = []
        hook = model._module.model.vision_model.register_forward_hook(lambda *args: calls.append(1))
        try:
            tokens, entering = run(model, lambda m: (m.token_embeddings, m.layers[0].layer_input))
        finally:
            hook.remove()
        assert not calls, "the vision tower ran on a text prompt"
        # Block 0 reads the token embeddings normed by the text model's embedding module, with no image in them.
        norm = model._module.model.text_model.embeddings.norm
        assert torch.equal(entering, norm(tokens))

    def test_the_pre_norm_identity_is_exact(self, model):
        # The block adds in this order, so the sum is bit for bit the block's output, padded batch included.
        count = len(model.layers)

        def body(m):
            return [
                (b.layer_input, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output)
                for b in (m.layers[i] for i in range(count))
            ]

        for index, (x, attention, mlp, out) in enumerate(run(model, body, ["The Eiffel Tower is in", "Paris"])):
            assert torch.equal(x + attention + mlp, out), f"block {index}: the sum is not layer_output bit for bit"
