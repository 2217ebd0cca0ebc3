"""Granite-4 (`GraniteMoeHybridForCausalLM`), end to end: a Mamba-2 block and an attention block, scaled, with mixtures."""

import torch

from nnterp_harness.recurrent import CHUNKED_STATES
from nnterp_harness.release import family
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows, run

FAMILY = family("granitemoehybrid")


class TestGraniteMoeHybrid(FamilySuite):
    CHECKPOINT = "granitemoehybrid"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None, mlp="block_sparse_moe")
    EXPECTED_UNAVAILABLE = {**CHUNKED_STATES, **ROUTED_EXPERTS}

    def mixture_sum(self, mixture):
        # The block adds the mixture's output and its shared MLP's before scaling the sum.
        return mixture.parent.source.hidden_states_4.output

    def test_mixer_output_is_scaled_by_the_block(self, model):
        multiplier = model.config.residual_multiplier
        assert multiplier != 1.0

        def body(m):
            mix = m.layers[0].linear_attn
            return mix.output, mix.attention_output

        raw, contribution = run(model, body)
        assert torch.equal(contribution, raw * multiplier)
