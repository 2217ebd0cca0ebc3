"""Mistral Large 4, end to end: Mistral 3's packed Pixtral tower and 2x2 patch merger over indexed latent attention
and a grouped softmax mixture.

The text type (`mistral_large4_text`) has no causal-LM class in the auto mapping, so its
family's contract runs on the wrapper. `PixtralProcessor` cannot be imported by name
without torchvision, so the processor is loaded with the class itself, its image
processor the PIL one.
"""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("mistral_large4")
FAMILY = family("mistral_large4")

from nnterp_harness.entries.mistral_large4 import mistral_large4_processor  # noqa: E402 - after the skip

PROCESSOR = mistral_large4_processor()
LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

#: A prompt longer than the indexer keeps keys per query.
LONG_PROMPT = "The Eiffel Tower is in Paris, and the Colosseum is in Rome."


class TestMistralLarge4Vision(VisionSuite):
    CHECKPOINT = "mistral_large4"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    TOWER_ENVOYS = (FAMILY.PixtralVision, FAMILY.VisionLayer, FAMILY.VisionAttention, FAMILY.VisionMlp)
    IMAGE_SIZE_FIXED = False

    def test_the_projector_norms_and_merges_the_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            merged = model.projector.patch_merger.output.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, merged, projected, features))
        last, tower, received, merged, projected, features = box[0]
        merge = model.config.spatial_merge_size
        assert torch.equal(tower, last)
        assert torch.equal(received, last[0])
        assert merged.shape == (received.shape[0] // merge**2, received.shape[1])
        assert torch.equal(projected, features)

    def test_row_breaks_are_text_tokens(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append((model.vision.image_token_mask.save(), model.inputs.save()))
        mask, inputs = box[0]
        ids = inputs[1]["input_ids"]
        breaks = ids == PROCESSOR.image_break_token_id
        ends = ids == PROCESSOR.image_end_token_id
        side = self.IMAGE_SIDE // (model.vision.patch_size * model.config.spatial_merge_size)
        assert int(mask.sum()) == side * side
        assert int(breaks.sum()) == side - 1 and int(ends.sum()) == 1
        assert not bool((mask & (breaks | ends)).any())
