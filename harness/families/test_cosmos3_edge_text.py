"""Cosmos3-Edge's text stack, on the wrapper checkpoint.

transformers has no causal-LM class for `cosmos3_edge_text`, so the wrapper checkpoint serves its text model.
"""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, run
from nnterp_harness.vision import processor_of, with_token_types

skip_unless_known("cosmos3_edge")
FAMILY = family("cosmos3_edge")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {
    "task": "image-text-to-text",
    "processor": with_token_types(processor_of("cosmos3_edge", "Cosmos3EdgeProcessor")),
}


class TestCosmos3EdgeText(FamilySuite):
    CHECKPOINT = "cosmos3_edge"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    # The MLP is ungated and its input projection is `up_proj` (`fc1`): the neurons are the activation itself.
    NEURONS_FROM_ACTIVATION = False

    def test_plain_mlp_neurons_are_the_activation(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.mlp_activation, mlp.mlp_neurons

        activation, neurons = run(model, body)
        assert torch.equal(neurons, activation)
