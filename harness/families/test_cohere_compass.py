"""Cohere Compass, end to end: the packed Qwen3 ViT with a 2-D axial rotary and per-image attention, its merger as
projector, and two deepstack taps that re-add tower blocks 0 and 1 to the image rows after the parallel text blocks
0 and 1."""

import pytest
import torch

from nnterp import Unavailable
from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE, TEXT_ONLY
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, moved, rows, ulp_close
from nnterp_harness.vision import QUESTION, VisionSuite, logits_of, processor_of, prompt_for

skip_unless_known("cohere_compass")
FAMILY = family("cohere_compass_text")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("cohere_compass", "CohereCompassProcessor")}


class TestCohereCompassVision(VisionSuite):
    CHECKPOINT = "cohere_compass"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_features_from_another_image(self, model):
        # The deepstack tap carries the image too: the features alone move the logits but do not swap the image.
        prompt = prompt_for(model)
        box = []
        with model.trace(prompt, images=self.images(1)):
            features = model.vision.image_features.save()
            box.append((features, [block.deepstack_output.save() for block in model.layers[:2]]))
            box.append(model.logits.save())
        (features, stacked), other_logits = box
        own = logits_of(model, prompt, self.images(0))
        assert moved(own, other_logits), "two images give the same logits"

        def features_only(m):
            m.vision.image_features[:] = features

        def both(m):
            m.vision.image_features[:] = features
            for block, tapped in zip(m.layers[:2], stacked):
                block.deepstack_output[:] = tapped

        half = logits_of(model, prompt, self.images(0), features_only)
        assert moved(half, own) and moved(half, other_logits)
        assert ulp_close(logits_of(model, prompt, self.images(0), both), other_logits)

    def test_each_tap_adds_to_the_image_rows_only(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            for block, following in zip(model.layers[:2], model.layers[1:3]):
                out = block.layer_output.save()
                stacked = block.deepstack_output.save()
                box.append((out, stacked, following.layer_input.save()))
        for index, (out, stacked, following) in enumerate(box):
            assert torch.equal(following, stacked), f"text block {index + 1} does not receive the tapped stream"
            assert torch.equal(stacked[~mask], out[~mask]), f"tap {index} moves the text rows"
            assert moved(stacked[mask], out[mask]), f"tap {index} adds nothing"

    def test_a_tap_write_lands(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            model.layers[1].deepstack_output[mask] = 0
            box.append((mask, model.layers[2].layer_input.save(), model.logits.save()))
        mask, following, logits = box[0]
        assert float(following[mask].detach().abs().max()) == 0.0
        assert moved(logits, clean["logits"])

    def test_blocks_past_the_taps_have_none(self, model):
        support = model.support()["deepstack_output"]
        assert list(support) == [2] and "no deepstack tap" in support[2], support
        with pytest.raises(Unavailable, match="no deepstack tap"):
            with model.trace(prompt_for(model), images=self.images(0)):
                model.layers[2].deepstack_output.save()

    def test_the_text_only_load_has_no_taps(self, text_only):
        support = text_only.support()["deepstack_output"]
        assert all(reason == TEXT_ONLY for reason in support.values()), support
        with pytest.raises(Unavailable, match="text-only load"):
            with text_only.trace(QUESTION):
                text_only.layers[0].deepstack_output.save()

    def test_the_merger_projects_2x2_groups_of_the_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((last, received, projected, tower, features))
        last, received, projected, tower, features = box[0]
        assert torch.equal(received, last[0]) and torch.equal(tower, last)
        assert torch.equal(projected, features)
        assert features.shape[0] * 4 == tower.shape[1]


class TestCohereCompassText(FamilySuite):
    CHECKPOINT = "cohere_compass"
    FAMILY = FAMILY
    # One norm feeds both sublayers of the parallel block.
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", ln2=None)
    LOAD_KWARGS = LOAD_KWARGS
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True
    # A text prompt reaches no tap, so the generic reads skip it; the taps are read with an image in
    # `TestCohereCompassVision`, and their per-block support is held below.
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block", "deepstack_output": "no deepstack tap"}

    def test_support_is_what_this_family_expects(self, model, monkeypatch):
        taps = model.support()["deepstack_output"]
        assert set(taps) == {2} and "no deepstack tap follows this block" in taps[2], taps
        whole = type(model).support

        def without_taps(self, *args, **kwargs):
            return {key: entry for key, entry in whole(self, *args, **kwargs).items() if key != "deepstack_output"}

        monkeypatch.setattr(type(model), "support", without_taps)
        super().test_support_is_what_this_family_expects(model)
