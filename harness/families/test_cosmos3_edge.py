"""Cosmos3 Edge, end to end: a packed SigLIP2 NaViT with per-image attention, merged 2x2 by the projector.

Cosmos3 Edge's processor does not ask for the multimodal token types its model needs
for the multimodal rotary positions (an image run raises "`mm_token_type_ids` is
missing"), so the tests' processor asks for them on every call.
"""

import torch

from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, run
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("cosmos3_edge")
FAMILY = family("cosmos3_edge_text")


def with_token_types(processor):
    """`processor`, its calls returning `mm_token_type_ids` unless told otherwise."""
    base = type(processor)

    class TokenTypes(base):
        def __call__(self, *args, **kwargs):
            kwargs.setdefault("return_mm_token_type_ids", True)
            return super().__call__(*args, **kwargs)

    TokenTypes.__name__ = base.__name__
    processor.__class__ = TokenTypes
    return processor


#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {
    "task": "image-text-to-text",
    "processor": with_token_types(processor_of("cosmos3_edge", "Cosmos3EdgeProcessor")),
}


class TestCosmos3EdgeVision(VisionSuite):
    CHECKPOINT = "cosmos3_edge"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_projector_merges_the_normed_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, features))
        last, tower, received, features = box[0]
        assert torch.equal(received, tower[0])
        assert not torch.equal(tower, last)
        # Each image token is one 2x2 group of patches.
        assert features.shape[0] * 4 == tower.shape[1]

    def test_the_tower_mlp_has_no_gate(self, model):
        block = model.vision.layers[0]
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append((block.mlp.up_proj.output.save(), block.mlp.down_proj.input.save()))
        up, down_in = box[0]
        assert up.shape == down_in.shape and not torch.equal(up, down_in)


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
