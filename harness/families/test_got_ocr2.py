"""GOT-OCR2, end to end: a SAM tower with a convolutional neck and two strided convolutions as projector, on Qwen2.

Both tasks build `GotOcr2ForConditionalGeneration`, its text model served by `qwen2`;
the image-text-to-text load adds the processor, which expands each `<imgpad>` of the
text to the image's tokens and refuses text without an image, so the family contract
runs on the default-task load, the same class with no processor. The tower's windowed
blocks run on a `[images, rows, columns, width]` grid with their own attention
arithmetic and no family keys them yet: `model.vision` is a plain envoy and
`support()` lists no vision value.
"""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, moved, rows
from nnterp_harness.vision import QUESTION, image

skip_unless_known("got_ocr2")
FAMILY = family("got_ocr2")


class TestGotOcr2Wrapper:
    @pytest.fixture(scope="class")
    @classmethod
    def model(cls):
        path = locate.checkpoint_path("got_ocr2")
        return StandardizedTransformer(str(path), task="image-text-to-text", dispatch=True, attn_implementation="eager")

    def test_the_wrapper_takes_an_image(self, model):
        assert model.family is FAMILY
        assert type(model._module).__name__ == "GotOcr2ForConditionalGeneration"
        tokens = model.config.image_seq_length
        encoded = [
            dict(
                model.processor(
                    images=[image(seed)], text="<imgpad>" + QUESTION, num_image_tokens=tokens, return_tensors="pt"
                )
            )
            for seed in (0, 1)
        ]
        assert int((encoded[0]["input_ids"] == model.config.image_token_id).sum()) == model.config.image_seq_length
        box = []
        for inputs in encoded:
            with model.trace(inputs):
                box.append(model.logits.save())
        assert moved(box[0], box[1]), "two images give the same logits"

    def test_no_vision_value_is_served(self, model):
        assert type(model.vision).__name__ == "Plain"
        assert not [name for name in model.support() if name.startswith("vision")]

    def test_the_processor_refuses_text_alone(self, model):
        with pytest.raises(ValueError, match="valid `images`"):
            model.processor(text=QUESTION, return_tensors="pt")


class TestGotOcr2DefaultTask(FamilySuite):
    """The default-task load: the same class with no processor, the whole family contract on its text stack."""

    CHECKPOINT = "got_ocr2"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")

    def test_the_default_task_builds_the_wrapper_with_no_processor(self, model):
        assert type(model._module).__name__ == "GotOcr2ForConditionalGeneration"
        assert model.processor is None
        assert isinstance(model._module.model.vision_tower, torch.nn.Module)
        assert not [name for name in model.support() if name.startswith("vision")]
