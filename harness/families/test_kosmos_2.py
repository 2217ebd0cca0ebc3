"""Kosmos-2, end to end: a CLIP tower, a latent-query resampler, and the image written in at a position mask.

The wrapper's forward refuses a call without an image, so the text family's suite
runs on `Kosmos2TextForCausalLM`, the text model loaded from the wrapper checkpoint
(no auto class maps `kosmos_2_text_model`, and the default task builds the wrapper,
with no processor). `Kosmos2Processor` takes no chat template, so the tests
set the one saved beside the checkpoint on it. The processor takes one image per
prompt and writes its 64 placeholders after `<image>`; the text stack overwrites their
embeddings with the projected image, then scales the stream and adds sinusoidal
positions, so block 0 receives each image row times `sqrt(embed_dim)` plus its position.
"""

from pathlib import Path
from typing import Any

import pytest
import torch

from nnterp.components.kosmos_vision import Kosmos2Vision
from nnterp.components.vision import VisionAttention, VisionLayer, VisionMlp
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import moved
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("kosmos-2")
FAMILY = family("kosmos-2")
TEXT_FAMILY = family("kosmos_2_text_model")
CHECKPOINT = "kosmos_2"


def kosmos_processor() -> Any:
    """The checkpoint's processor with its saved chat template, which `Kosmos2Processor.__init__` does not take."""
    from transformers import AutoProcessor

    path = locate.checkpoint_path(CHECKPOINT)
    processor = AutoProcessor.from_pretrained(path)
    processor.chat_template = (path / "chat_template.jinja").read_text(encoding="utf-8")
    return processor


def text_module(path: Path) -> Any:
    """`Kosmos2TextForCausalLM` with the wrapper checkpoint's text weights."""
    from transformers.models.kosmos2.modeling_kosmos2 import Kosmos2TextForCausalLM

    return Kosmos2TextForCausalLM.from_pretrained(
        path, key_mapping=TEXT_FAMILY._TEXT_KEY_MAPPING, attn_implementation="eager"
    ).eval()


class TestKosmos2Vision(VisionSuite):
    CHECKPOINT = CHECKPOINT
    FAMILY = FAMILY
    TOWER_ENVOYS = (Kosmos2Vision, VisionLayer, VisionAttention, VisionMlp)
    LOAD_KWARGS = {"processor": kosmos_processor()}

    def encoded(self, model: Any) -> Any:
        return model.processor(images=self.images(0), text=prompt_for(model), return_tensors="pt")

    def entering(self, model: Any, features: torch.Tensor) -> torch.Tensor:
        """`features` as block 0 receives them on the one-image prompt: scaled, plus the rows' positions."""
        stack = model._module.text_model.model
        encoded = self.encoded(model)
        with torch.no_grad():
            positions = stack.embed_positions(input_ids=encoded["input_ids"])
        return features * stack.embed_scale + positions[encoded["image_embeds_position_mask"].bool()]

    def test_zeroing_features_moves_the_logits_and_lands(self, model):
        # Zeroed rows still receive their positions, so they land as `entering` gives zeros, not as zeros.
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            model.vision.image_features[:] = 0
            box.append((mask, model.layers[0].layer_input.save(), model.logits.save()))
        mask, first, logits = box[0]
        assert torch.equal(first[mask], self.entering(model, torch.zeros_like(clean["features"])))
        assert torch.equal(first[~mask], clean["first"][~clean["mask"]])
        assert moved(logits, clean["logits"])

    def test_two_images_in_one_invoke(self, model):
        with pytest.raises(ValueError, match="number of examples in `texts` and `images` should be the same"):
            with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
                model.logits.save()

    def test_features_land_at_the_position_mask(self, model):
        encoded = self.encoded(model)
        placed = encoded["image_embeds_position_mask"].bool()
        stack = model._module.text_model.model
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            features = model.vision.image_features.save()
            tokens = model.embed_tokens.output.clone().save()
            positions = model.text_model.model.embed_positions.output.save()
            first = model.layers[0].layer_input.save()
            box.append((mask, features, tokens, positions, first))
        mask, features, tokens, positions, first = box[0]
        assert torch.equal(mask, placed)
        # The placeholders follow bos and `<image>`, one per latent query, and `</image>` closes them.
        rows = mask[0].nonzero().flatten()
        assert rows.tolist() == list(range(2, 2 + model.config.latent_query_num))
        assert features.shape == (model.config.latent_query_num, model.hidden_size)
        assert torch.equal(first[mask], features * stack.embed_scale + positions[mask])
        assert torch.equal(first[~mask], tokens[~mask] * stack.embed_scale + positions[~mask])
        assert moved(tokens[mask], features)

    def test_tower_output_reaches_the_projector_normed(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            box.append((tower, received))
        tower, received = box[0]
        norm = model._module.vision_model.model.post_layernorm
        with torch.no_grad():
            expected = torch.nn.functional.normalize(norm(tower), dim=-1)
        assert torch.equal(received, expected)
