"""Fuyu, end to end: no tower, each image patch linearly projected straight into Persimmon's text blocks.

Both tasks build `FuyuForCausalLM`, a text model served by `persimmon`; the
image-text-to-text load adds the processor. Its one image module is a single linear
projection, which a `Vision` and a `projector` cannot both name, so the wrapper has
no vision values. The processor's image path fails on every release here, so the
wrapper load runs text only (on 5.24 the PIL image processor patchifies a torch tensor with
numpy's `transpose`; on 5.20 and 5.17 the processor counts one image token fewer in the
ids than in its text.)
"""

import pytest

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import QUESTION, image

skip_unless_known("fuyu")
FAMILY = family("fuyu")


class TestFuyuText(FamilySuite):
    CHECKPOINT = "fuyu"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "final_layernorm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

    def test_the_wrapper_is_the_causal_lm_with_its_processor(self, model):
        assert type(model._module).__name__ == "FuyuForCausalLM"
        assert type(model.processor).__name__ == "FuyuProcessor"
        assert not {"vision", "projector"} & set(model._aliases)
        assert not [name for name in model.support() if name.startswith("vision")]

    def test_the_processor_takes_an_image(self, model):
        try:
            encoded = model.processor(text=QUESTION, images=[image(0)], return_tensors="pt")
        except (TypeError, ValueError) as error:
            pytest.skip(f"FuyuProcessor cannot process an image on this release: {error!r}")
        assert int((encoded["input_ids"] == model.config.image_token_id).sum()) > 0


class TestFuyuDefaultTask(TestFuyuText):
    """The default-task load: the same class with no processor, the whole family contract on its text stack."""

    LOAD_KWARGS = {}

    def test_the_wrapper_is_the_causal_lm_with_its_processor(self, model):
        assert type(model._module).__name__ == "FuyuForCausalLM"
        assert model.processor is None
        assert not {"vision", "projector"} & set(model._aliases)

    # No processor, no image.
    test_the_processor_takes_an_image = None
