"""Ovis2 over Qwen2, end to end: an RMS-normed tower, a visual head and embedding table, the scatter in the model."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("ovis2")
FAMILY = family("ovis2")
#: Built from the checkpoint's parts: transformers 5.17's auto class finds no image processor without torchvision.
PROCESSOR = processor_of("ovis2", "Ovis2Processor", video_slot=False)


class TestOvis2Vision(VisionSuite):
    CHECKPOINT = "ovis2"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_table_embeds_the_visual_words(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            words = model.projector.input.save()
            features = model.vision.image_features.save()
            box.append((tower, words, features))
        tower, words, features = (value.detach() for value in box[0])
        stride = model.config.vision_config.hidden_stride
        indicators = len(model.config.visual_indicator_token_ids)
        table = model.projector._module.weight
        assert words.shape[1] * stride**2 == tower.shape[1]
        assert torch.allclose(words[..., :-indicators].sum(-1), torch.ones(()), atol=1e-5)
        assert float(words[..., -indicators:].abs().max()) == 0.0
        assert torch.allclose((words @ table).reshape(features.shape), features, atol=1e-6)

    def test_tower_output_is_the_final_norm_and_writes_land(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            normed = model.vision.norm.output.save()
            tower = model.vision.tower_output.save()
            box.append((normed, tower))
        normed, tower = box[0]
        assert model.vision.norm._module is model._module.model.vision_tower.transformer.rms_norm
        assert torch.equal(normed, tower)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.tower_output[:] = 0
            box.append(model.vision.image_features.save())
        assert not torch.equal(box[0], clean["features"])

    def test_the_indicators_are_no_image_tokens(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            ids = model.inputs[1]["input_ids"].save()
            mask = model.vision.image_token_mask.save()
            box.append((ids, mask))
        ids, mask = box[0]
        indicators = torch.tensor(model.config.visual_indicator_token_ids)
        assert bool(torch.isin(ids, indicators).any())
        assert not bool(mask[torch.isin(ids, indicators)].any())


class TestOvis2Text(FamilySuite):
    CHECKPOINT = "ovis2"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
