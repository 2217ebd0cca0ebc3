"""Granite 4 Vision over Granite's block, end to end: a SigLIP tower on each image's crops, window Q-Former
projectors, the image rows zeroed in the embeddings and each projector's output added before its text block: the
tap before block 0 is `image_features`, the taps before blocks 1 and 2 are `layers[0]` and `layers[1]`'s
`deepstack_output`."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import DeepstackChecks
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("granite4_vision")
FAMILY = family("granite4_vision")
TAPS = 2


class TestGranite4VisionVision(VisionSuite):
    CHECKS = (DeepstackChecks,)
    CHECKPOINT = "granite4_vision"
    FAMILY = FAMILY
    CROPS = 2
    TAPS = TAPS

    def test_features_are_the_first_projector_with_newline_rows(self, model):
        # `deepstack_layer_map[0]` sends the last tower block to text block 0 through `projector[0]`.
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            projected = model.projector[0].output.save()
            features = model.vision.image_features.save()
            box.append((projected, features))
        projected, features = box[0]
        crops, tokens, width = projected.shape
        side = int(tokens**0.5)
        assert crops == self.CROPS and width == model.hidden_size
        assert features.shape == (tokens + side * (side + 1), width)
        assert torch.equal(features[:tokens], projected[0])
        tile = features[tokens:].reshape(side, side + 1, width)
        assert torch.equal(tile[:, :side].reshape(-1, width), projected[1])
        assert torch.equal(tile[:, side], model._module.model.image_newline.expand(side, width))

    def test_the_image_rows_enter_zeroed(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            lookup = model.token_embeddings.save()
            features = model.vision.image_features.save()
            box.append((mask, lookup, features, model.layers[0].layer_input.save()))
        mask, lookup, features, first = box[0]
        multiplier = model.config.get_text_config().embedding_multiplier
        # The image tokens' own embeddings never reach block 0: only the projected image does.
        assert float(lookup[mask].abs().max()) > 0.0
        assert torch.equal(first[mask], features)
        assert not torch.equal(first[mask], features + lookup[mask] * multiplier)
        assert torch.equal(first[~mask], lookup[~mask] * multiplier)

    def test_a_map_without_block_0_has_no_features(self, model, monkeypatch):
        monkeypatch.setattr(model._module.config, "deepstack_layer_map", [(-1, 1), (-2, 2)])
        reason = model.vision.support()["image_features"]
        assert "no projector is added before text block 0" in reason, reason
