"""Apertus 1.5 (text), end to end: Apertus's block in the multimodal model's text decoder."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("apertus1p5_text")


class TestApertus1p5Text(FamilySuite):
    CHECKPOINT = "apertus1p5_text"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", ln1="attention_layernorm", ln2="feedforward_layernorm")
    # The MLP is ungated but names its input projection `up_proj`: the neurons are the activation itself.
    NEURONS_FROM_ACTIVATION = False

    def test_plain_mlp_neurons_are_the_activation(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.mlp_activation, mlp.mlp_neurons

        activation, neurons = run(model, body)
        assert torch.equal(neurons, activation), "the ungated MLP's neurons are not its activation"
