"""Command A Vision over Cohere 2, end to end: SigLIP per tile, a pixel-shuffle SwiGLU, the scatter in the model.

transformers has the wrapper's image processor only as a torchvision class, so the
processor is built with `Cohere2VisionImageProcessorPil`, the entry's PIL and NumPy one.
"""

import torch

from nnterp_harness.parallel import OneNormParallelChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, moved, rows
from nnterp_harness.vision import VisionSuite, image, prompt_for

skip_unless_known("cohere2_vision")
FAMILY = family("cohere2_vision")

from nnterp_harness.entries.cohere2_vision import cohere2_vision_processor  # noqa: E402 - after the skip

PROCESSOR = cohere2_vision_processor()


class TestCohere2VisionVision(VisionSuite):
    CHECKPOINT = "cohere2_vision"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_projector_shuffles_the_normed_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            normed = model.vision.norm.output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, normed, tower, received, projected, features))
        last, normed, tower, received, projected, features = box[0]
        factor = model.config.downsample_factor
        assert torch.equal(received, tower)
        assert torch.equal(tower, normed)
        assert moved(received, last)
        assert features.shape[0] * factor**2 == received.shape[1]
        assert torch.equal(projected.reshape(features.shape), features)

    def test_a_wide_image_is_tiles_and_a_thumbnail(self, model):
        wide = image(0, self.IMAGE_SIDE * 2).resize((self.IMAGE_SIDE * 2, self.IMAGE_SIDE))
        one = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=[wide]):
            inputs = model.inputs.save()
            mask = model.vision.image_token_mask.save()
            rows = model.vision.layers[0].layer_output.save()
            features = model.vision.image_features.save()
            box.append((inputs, mask, rows, features))
        inputs, mask, rows, features = box[0]
        breaks = inputs[1]["input_ids"] == PROCESSOR.tokenizer.convert_tokens_to_ids(PROCESSOR.img_line_break_token)
        assert rows.shape[0] == 3
        assert int(mask.sum()) == 3 * int(one["mask"].sum()) == features.shape[0]
        assert int(breaks.sum()) == 3

    def test_the_lens_is_unscaled_on_the_wrapper(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            lens = model.project_on_vocab(model.layers[-1].layer_output).save()
            box.append((lens, model.logits.save()))
        lens, logits = box[0]
        assert model.config.text_config.logit_scale != 1.0
        assert torch.equal(lens, logits)


class TestCohere2VisionText(FamilySuite):
    CHECKS = (OneNormParallelChecks,)
    CHECKPOINT = "cohere2_vision"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", ln2=None)
    EXACT_IDENTITY = True
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
