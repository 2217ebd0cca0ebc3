"""Solar Open (`SolarOpenForCausalLM`), end to end: a grouped sigmoid mixture with shared experts on every block."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("solar_open")


class TestSolarOpen(FamilySuite):
    CHECKPOINT = "solar_open"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "moe_intermediate_size"

    def test_every_block_mixes(self, model):
        assert all(isinstance(block.mlp, FAMILY.Moe) for block in model.layers)

    def test_shared_expert_output_is_the_shared_mlp_on_the_mixture_input(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.input, mixture.shared_expert_output

        mixture_input, shared = run(model, body)
        module = model.layers[1].mlp.shared_experts._module
        assert torch.allclose(shared, module(mixture_input), atol=1e-6)
