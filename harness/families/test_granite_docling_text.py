"""GraniteDocling's text stack (`granite_docling_text`), held to `FamilySuite` on the `granite_docling` wrapper checkpoint; test_granite_docling.py holds the tower."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, run
from nnterp_harness.towers import NO_TAP, DeepstackTextChecks

skip_unless_known("granite_docling")
FAMILY = family("granite_docling")
TAPS = 1


class TestGraniteDoclingText(FamilySuite):
    CHECKS = (DeepstackTextChecks,)
    CHECKPOINT = "granite_docling"
    FAMILY = FAMILY
    NATIVE = rows("model.text_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}
    EXPECTED_UNAVAILABLE = NO_TAP
    TAPS = TAPS

    # Granite's scales live on the wrapper's text config, where `ResidualScaleChecks` does not look.
    def test_the_contributions_are_the_scaled_outputs(self, model):
        multiplier = model.config.get_text_config().residual_multiplier
        assert multiplier != 1.0, "the checkpoint leaves residual_multiplier at one"

        def body(m):
            block = m.layers[1]
            return block.self_attn.output[0], block.self_attn.attention_output, block.mlp.output, block.mlp.mlp_output

        attn_raw, attn, mlp_raw, mlp = run(model, body)
        assert torch.equal(attn, attn_raw * multiplier)
        assert torch.equal(mlp, mlp_raw * multiplier)

    def test_logits_are_the_head_divided_by_logits_scaling(self, model):
        scaling = model.config.get_text_config().logits_scaling
        assert scaling != 1.0, "the checkpoint leaves logits_scaling at one"
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        assert torch.equal(logits, head / scaling)
