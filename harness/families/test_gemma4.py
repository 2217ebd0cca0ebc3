"""Gemma 4, end to end: its own sandwich-block ViT pooled 2x2, the embedder as projector, on Gemma 4's text blocks.

The default task builds the same `Gemma4ForConditionalGeneration` with no processor: a
text model served by `gemma4`, with a `vision` that no image reaches.
"""

import pytest
import torch

from nnterp import Unavailable
from nnterp.components.vision import TEXT_ONLY
from nnterp_harness.head_widths import PerBlockHeadWidthChecks
from nnterp_harness.layer_scalar import LayerScalarChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, ulp_close
from nnterp_harness.vision import QUESTION, VisionSuite, processor_of, prompt_for

skip_unless_known("gemma4")
FAMILY = family("gemma4")


def _processor():
    from transformers.models.gemma4.feature_extraction_gemma4 import Gemma4AudioFeatureExtractor

    return processor_of("gemma4", "Gemma4Processor", feature_extractor=Gemma4AudioFeatureExtractor())


def _root_cause(error: BaseException) -> BaseException:
    while error.__cause__ is not None or error.__context__ is not None:
        error = error.__cause__ or error.__context__
    return error


#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
#: An older release's `Gemma4Processor` imports the torchvision image processor, so none loads there.
try:
    PROCESSOR, NO_PROCESSOR = _processor(), None
except ModuleNotFoundError as error:
    PROCESSOR, NO_PROCESSOR = None, f"Gemma4Processor does not import on this release: {_root_cause(error)!r}"
needs_processor = pytest.mark.skipif(NO_PROCESSOR is not None, reason=str(NO_PROCESSOR))


@needs_processor
class TestGemma4Vision(VisionSuite):
    CHECKPOINT = "gemma4"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.Vision, FAMILY.TowerLayer, FAMILY.TowerAttention, FAMILY.TowerMlp)
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_projector_embeds_the_pooled_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        pooled = model.vision.tower_config.pooling_kernel_size**2
        assert torch.equal(projected, features)
        assert received.shape[0] == features.shape[0] < tower.shape[1] // pooled + 1

    def test_tower_pattern_is_not_causal(self, model):
        # The patch axis is padded to a fixed row count; the padding columns are masked out.
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            box.append((mask, model.vision.layers[0].self_attn.attention_probabilities.save()))
        mask, pattern = box[0]
        real = int(mask.sum()) * model.vision.tower_config.pooling_kernel_size**2
        assert 0 < real < pattern.shape[-1]
        assert torch.allclose(pattern.sum(-1), torch.ones(()), atol=1e-5)
        assert float(pattern[..., real:].abs().max()) == 0.0
        above = torch.ones(real, real, dtype=torch.bool).triu(1)
        assert float(pattern[..., :real, :real][..., above].min()) > 0.0, "the tower's pattern has a causal mask"

    def test_the_default_task_runs_the_wrappers_text_model(self, model, text_only):
        assert type(text_only._module).__name__ == "Gemma4ForConditionalGeneration"
        assert text_only.family is FAMILY
        box = []
        with model.trace(QUESTION):
            box.append(model.logits.save())
        with text_only.trace(QUESTION):
            box.append(text_only.logits.save())
        assert ulp_close(box[0], box[1])


class Gemma4TextStack(FamilySuite):
    """The family contract on the wrapper's text stack, under a load its subclass names."""

    CHECKS = (LayerScalarChecks, PerBlockHeadWidthChecks)

    CHECKPOINT = "gemma4"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    MLP_NORM = "pre_feedforward_layernorm"

    def extra_terms(self, block):
        # The per-layer input's contribution, added after the MLP's.
        return [block.post_per_layer_input_norm.output]


@needs_processor
class TestGemma4Text(Gemma4TextStack):
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}


class TestGemma4DefaultTask(Gemma4TextStack):
    """The default-task load, a text model: the whole family contract on the same text stack."""

    def test_no_image_reaches_the_default_task_load(self, model):
        assert type(model._module).__name__ == "Gemma4ForConditionalGeneration"
        assert model.processor is None
        assert model.vision.no_images() == TEXT_ONLY
        assert not [name for name in model.support() if name.startswith("vision")]
        with pytest.raises(Unavailable, match="text-only load"):
            with model.trace(QUESTION):
                model.vision.image_features.save()
