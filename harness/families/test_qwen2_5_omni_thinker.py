"""Qwen2.5-Omni's thinker, end to end: Qwen2.5-VL's packed ViT (block 0 attends per image, block 1 per window),
its merger as projector reversing the window order, and a one-layer audio tower; then the text stack's suite,
Qwen2's block with multimodal rotary positions, on the same checkpoint. The audio tower serves no values.
"""

import numpy as np
import pytest
import torch

from nnterp.components.thinker import ThinkerScatter
from nnterp_harness.entries.qwen2_5_omni_thinker import thinker_model_missing, thinker_processor
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import PerImageHeadsChecks, QwenVisionSuite, WindowOrderChecks
from nnterp_harness.vision import prompt_for

skip_unless_known("qwen2_5_omni_thinker")
if reason := thinker_model_missing():
    pytest.skip(reason, allow_module_level=True)

FAMILY = family("qwen2_5_omni_thinker")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = thinker_processor("qwen2_5_omni_thinker", "Qwen2_5OmniProcessor")


class ThinkerChecks:
    """An omni thinker's scatter: audio first, then the image, each at its own tokens; mixed in beside `VisionSuite`."""

    #: The class of the thinker's model, which scatters the features.
    THINKER_MODEL = "Qwen2_5OmniThinkerModel"

    def test_the_image_scatter_is_the_thinker_models_second(self, model):
        assert type(model._module.model).__name__ == self.THINKER_MODEL
        assert isinstance(model.model, ThinkerScatter)
        # The audio scatter comes first in the forward's source; `image_features` is keyed on the image's.
        source = str(model.model.source)
        assert source.index("inputs_embeds_masked_scatter_0") < source.index("audio_mask, audio_features")
        assert source.index("audio_mask, audio_features") < source.index("inputs_embeds_masked_scatter_1")

    def test_an_audio_clip_lands_at_its_tokens_beside_the_image(self, model):
        config = model._module.config
        tokens = model.processor.tokenizer.convert_ids_to_tokens(
            [config.audio_start_token_id, config.audio_token_id, config.audio_end_token_id]
        )
        clip = np.random.RandomState(0).randn(16000).astype("float32")
        prompt = "".join(tokens) + prompt_for(model)
        ids = model.processor(text=[prompt], images=self.images(0), audio=[clip], return_tensors="pt")["input_ids"][0]
        box = []
        with model.trace(prompt, images=self.images(0), audio=[clip]):
            audio = model.model.audio_tower.output.last_hidden_state.save()
            features = model.vision.image_features.save()
            embedded = model.layers[0].layer_input.save()
            box.append((audio, features, embedded))
        audio, features, embedded = box[0]
        assert audio.shape[0] == int((ids == config.audio_token_id).sum()) > 0
        assert torch.equal(embedded[0, ids == config.audio_token_id], audio)
        assert torch.equal(embedded[0, ids == config.image_token_id], features)


class TestQwen2_5OmniThinkerVision(QwenVisionSuite):
    CHECKS = (ThinkerChecks, PerImageHeadsChecks, WindowOrderChecks)
    CHECKPOINT = "qwen2_5_omni_thinker"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
