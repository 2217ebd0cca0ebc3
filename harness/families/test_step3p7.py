"""Step3p7 over Step-3.5's text model, end to end: a ViT with a 2-D rotary and layer-scaled blocks, two stride-2
convolutions after them, a linear projector, the scatter in the model; a head-gated attention, a sliding-window
dense block and a sigmoid mixture whose own-loop experts are scaled before the shared expert is added.

transformers has the wrapper's image processor only as a torchvision class, so the
processor is built with `Step3p7ImageProcessorPil`, the entry's PIL and NumPy one.
"""

import numpy as np
import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import moved
from nnterp_harness.vision import VisionSuite, image, prompt_for

skip_unless_known("step3p7")
FAMILY = family("step3p7")

from nnterp_harness.entries.step3p7 import CROP, IMAGE_TOKENS, SIDE, step3p7_processor  # noqa: E402 - after the skip

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = step3p7_processor()


class TestStep3p7Vision(VisionSuite):
    CHECKPOINT = "step3p7"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.StepVision, FAMILY.VisionLayer, FAMILY.StepVisionAttention, FAMILY.StepVisionMlp)
    IMAGE_SIDE = SIDE
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_image_processor_gives_the_normalized_global_view(self, model):
        picture = image(0, SIDE)
        out = PROCESSOR.image_processor([picture], return_tensors="pt")
        mean = torch.tensor(PROCESSOR.image_processor.image_mean).view(3, 1, 1)
        std = torch.tensor(PROCESSOR.image_processor.image_std).view(3, 1, 1)
        pixels = torch.from_numpy(np.array(picture)).permute(2, 0, 1).float() / 255
        assert out["pixel_values"].shape == (1, 3, SIDE, SIDE)
        assert torch.allclose(out["pixel_values"][0], (pixels - mean) / std, atol=1e-5)
        assert out["num_local_patches"].tolist() == [0] and "pixel_values_local" not in out

    def test_the_projector_takes_the_downsampled_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, projected, features))
        last, tower, received, projected, features = box[0]
        width = model.vision.vision_hidden_size
        assert torch.equal(tower, last)
        # Two stride-2 convolutions: 4x fewer rows by side, 4x the width.
        assert received.shape == (1, IMAGE_TOKENS, 4 * width)
        assert tower.shape[1] == IMAGE_TOKENS * 16
        assert torch.equal(projected.reshape(features.shape), features)

    def test_an_edit_of_tower_output_reaches_the_projector(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.tower_output[:] = 0
            box.append(model.projector.input.save())
        received = box[0]
        # A zeroed stream leaves the downsampling convolutions their biases and their zero padding to work on.
        tower = model.vision._module
        side = SIDE // model.vision.patch_size
        with torch.no_grad():
            grid = tower.downsampler2(tower.downsampler1(torch.zeros(1, model.vision.vision_hidden_size, side, side)))
        assert torch.equal(received, grid.flatten(2).transpose(1, 2))
        assert moved(received, self.clean_received(model))

    def clean_received(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.projector.input.save())
        return box[0]

    def test_a_wide_image_is_local_crops_then_the_global_view(self, model):
        wide = image(0, 2 * SIDE).resize((2 * SIDE, SIDE))
        one = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=[wide]):
            inputs = model.inputs.save()
            mask = model.vision.image_token_mask.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            first = model.layers[0].layer_input.save()
            box.append((inputs, mask, projected, features, first))
        inputs, mask, projected, features, first = box[0]
        batch = inputs[1]
        # A 64x32 image: a 4x2 grid of 16-pixel crops, one image token each, then the 2x2 tokens of the global view.
        crops = (2 * SIDE // CROP) * (SIDE // CROP)
        assert batch["num_local_patches"].tolist() == [crops]
        assert batch["pixel_values_local"].shape == (crops, 3, CROP, CROP)
        newline = PROCESSOR.tokenizer.convert_tokens_to_ids("<patch_newline>")
        assert int((batch["input_ids"] == newline).sum()) == SIDE // CROP - 1
        assert features.shape[0] == crops + IMAGE_TOKENS == int(mask.sum())
        assert int(one["mask"].sum()) == IMAGE_TOKENS
        # The first tower run is the global view, whose projected rows come last.
        assert torch.equal(projected.reshape(-1, features.shape[-1]), features[crops:])
        assert torch.equal(first[mask], features)
