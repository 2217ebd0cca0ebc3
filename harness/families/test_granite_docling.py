"""GraniteDocling over Granite's block, end to end: a SigLIP-built tower over tiles, a pixel-shuffle connector inside
it, the scattered image scaled by `embedding_multiplier` with the text rows, and one deepstack tap that re-adds tower
block 0 to the image rows after text block 0."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import DeepstackChecks
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("granite_docling")
FAMILY = family("granite_docling")
TAPS = 1


class TestGraniteDoclingVision(VisionSuite):
    CHECKS = (DeepstackChecks,)
    CHECKPOINT = "granite_docling"
    FAMILY = FAMILY
    EMBEDDING_SCALE = "embedding_multiplier"
    TAPS = TAPS

    def test_the_scattered_image_is_scaled_with_the_text_rows(self, model):
        multiplier = model.config.get_text_config().embedding_multiplier
        assert multiplier != 1.0, "the checkpoint leaves embedding_multiplier at one"
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            lookup = model.token_embeddings.save()
            features = model.vision.image_features.save()
            box.append((mask, lookup, features, model.layers[0].layer_input.save()))
        mask, lookup, features, first = box[0]
        assert torch.equal(first[mask], features * multiplier)
        assert not torch.equal(first[mask], features)
        assert torch.equal(first[~mask], lookup[~mask] * multiplier)

    def test_the_connector_reads_the_normed_last_block(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            received = model.projector.input.save()
            projected = model.projector.output[0].save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        assert torch.equal(received, tower)
        assert torch.equal(projected, features)
        assert tower.shape[0] == 2 and features.shape[0] * 4 == tower.shape[0] * tower.shape[1]
