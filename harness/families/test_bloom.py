"""BLOOM, end to end: its own attention arithmetic, the residual added inside, a tuple-returning block."""

import torch

from nnterp.families import bloom
from nnterp_harness.suite import FamilySuite, rows


class TestBloom(FamilySuite):
    CHECKPOINT = "bloom"
    FAMILY = bloom
    NATIVE = rows("transformer", "h", "word_embeddings", "ln_f", attn="self_attention")

    def test_the_module_output_is_the_stream_with_the_contribution_added(self, model):
        block = model.layers[1]
        with model.trace("The Eiffel Tower is in"):
            x = block.layer_input.save()
            attn = block.self_attn.attention_output.save()
            returned = block.self_attn.output.save()
        assert torch.equal(returned[0], x + attn)

    def test_the_interior_does_not_need_eager(self, raw_model):
        from nnterp import StandardizedTransformer

        model = StandardizedTransformer(raw_model.repo_id)
        assert model.support()["self_attn.attention_probabilities"] is None
