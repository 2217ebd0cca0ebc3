"""SmolVLM over Llama, end to end: Idefics 3's SigLIP-built tower and pixel-shuffle connector, the scatter in
the wrapper's forward.

Releases before 5.24 merge the features in a helper of their own (`merger_scatter` says why); the file skips there.
"""

import pytest
import torch

from nnterp.components.vision import scatter_call
from nnterp_harness.entries.smolvlm import SIDE, merger_scatter
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("smolvlm")
if reason := merger_scatter():
    pytest.skip(reason, allow_module_level=True)

FAMILY = family("smolvlm")


def _processor():
    """The processor built from its parts, its video slot left empty: without torchvision it has no class.

    `apply_chat_template` reads the video processor's default frame count and rate even
    for a prompt without a video, so the slot gets a bare `SmolVLMVideoProcessor`,
    which builds without torchvision and only needs it to process a video.
    """
    from transformers.models.smolvlm.video_processing_smolvlm import SmolVLMVideoProcessor

    processor = processor_of("smolvlm", "SmolVLMProcessor")
    processor.video_processor = SmolVLMVideoProcessor()
    return processor


PROCESSOR = _processor()


class TestSmolVLMVision(VisionSuite):
    CHECKPOINT = "smolvlm"
    FAMILY = FAMILY
    IMAGE_SIDE = SIDE
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_features_are_the_connector_output_at_the_forward_scatter(self, model):
        assert scatter_call(model) == ("model.source.inputs_embeds_masked_scatter_0", 1)
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((projected, features))
        projected, features = box[0]
        assert projected.shape[:2] == (2, model.processor.image_seq_len)
        assert torch.equal(projected.reshape(-1, projected.shape[-1]), features)

    def test_the_prompt_wraps_each_image(self, model):
        ids = model.processor(text=prompt_for(model), images=self.images(0), return_tensors="pt")["input_ids"][0]
        tokens = model.processor.tokenizer.convert_ids_to_tokens(ids.tolist())
        start = tokens.index("<global-img>")
        assert tokens[start - 1] == tokens[start + model.processor.image_seq_len + 1] == "<fake_token_around_image>"
        assert (
            tokens[start + 1 : start + 1 + model.processor.image_seq_len] == ["<image>"] * model.processor.image_seq_len
        )


class TestSmolVLMText(FamilySuite):
    CHECKPOINT = "smolvlm"
    FAMILY = FAMILY
    NATIVE = rows("model.text_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
