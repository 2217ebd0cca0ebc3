"""GLM, end to end: a fused gate/up projection and a partial rotary embedding."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("glm")


class TestGlm(FamilySuite):
    CHECKPOINT = "glm"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False

    def test_neurons_are_the_activated_gate_times_the_up_half(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.gate_up_proj.output, mlp.mlp_activation, mlp.mlp_neurons

        fused, activation, neurons = run(model, body)
        _, up = fused.chunk(2, dim=-1)
        assert torch.equal(neurons, up * activation), "mlp_neurons is not up * act(gate)"
