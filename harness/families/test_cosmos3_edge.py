"""Cosmos3 Edge, end to end: a packed SigLIP2 NaViT with per-image attention, merged 2x2 by the projector.

Cosmos3 Edge's processor does not ask for the multimodal token types its model needs
for the multimodal rotary positions (an image run raises "`mm_token_type_ids` is
missing"), so the tests' processor asks for them on every call.
"""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import QwenVisionSuite
from nnterp_harness.vision import processor_of, prompt_for, with_token_types

skip_unless_known("cosmos3_edge")
FAMILY = family("cosmos3_edge")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {
    "task": "image-text-to-text",
    "processor": with_token_types(processor_of("cosmos3_edge", "Cosmos3EdgeProcessor")),
}


class TestCosmos3EdgeVision(QwenVisionSuite):
    CHECKPOINT = "cosmos3_edge"
    FAMILY = FAMILY
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
