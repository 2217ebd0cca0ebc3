"""Arcee, end to end: Llama's block with an ungated ReLU² MLP."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("arcee")


class TestArcee(FamilySuite):
    CHECKPOINT = "arcee"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # The MLP is ungated but names its input projection `up_proj`: the neurons are the activation itself.
    NEURONS_FROM_ACTIVATION = False

    def test_plain_mlp_neurons_are_the_activation(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.mlp_activation, mlp.mlp_neurons

        activation, neurons = run(model, body)
        assert torch.equal(neurons, activation), "the ungated MLP's neurons are not its activation"
