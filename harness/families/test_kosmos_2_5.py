"""Kosmos-2.5, end to end: a Pix2Struct-style tower over flattened patches, a latent-query resampler, a position mask.

The processor resizes each image to fill its `max_patches` patches and writes one
placeholder per latent query between `<image>` and `</image>`, marked 1 in
`image_embeds_position_mask` (the tags -1). The text stack overwrites the
placeholders' embeddings with the projected image, then scales the stream and adds
sinusoidal positions plus a segment embedding (1 at every nonzero mask entry), so
block 0 receives each image row times `sqrt(embed_dim)` plus its position and the
image segment. `Kosmos2_5Processor` takes no chat template, so the tests set the one
saved beside the checkpoint on it. The wrapper's forward runs without an image too,
so the text family's suite runs on the wrapper itself.
"""

from pathlib import Path
from typing import Any

import pytest
import torch

from nnterp.components.vision import VisionAttention, VisionLayer, VisionMlp
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import moved
from nnterp_harness.vision import VisionSuite, prompt_for

CHECKPOINT = "kosmos_2_5"
skip_unless_known("kosmos-2.5", CHECKPOINT)
FAMILY = family("kosmos-2.5")
TEXT_FAMILY = family("kosmos_2_5_text_model")


def kosmos_2_5_processor() -> Any:
    """The checkpoint's processor with its saved chat template, which `Kosmos2_5Processor.__init__` does not take."""
    from transformers import AutoProcessor

    path = locate.checkpoint_path(CHECKPOINT)
    processor = AutoProcessor.from_pretrained(path)
    processor.chat_template = (path / "chat_template.jinja").read_text(encoding="utf-8")
    return processor


PROCESSOR = kosmos_2_5_processor()


class TestKosmos2_5Vision(VisionSuite):
    CHECKPOINT = CHECKPOINT
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.Kosmos2_5Vision, VisionLayer, VisionAttention, VisionMlp)
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": PROCESSOR}

    def encoded(self, model: Any) -> Any:
        return model.processor(images=self.images(0), text=prompt_for(model), return_tensors="pt")

    def added(self, model: Any, encoded: Any) -> torch.Tensor:
        """What the text stack adds to the scaled embeddings: the positions plus each row's segment embedding."""
        stack = model._module.text_model.model
        with torch.no_grad():
            positions = stack.embed_positions(input_ids=encoded["input_ids"])
            return positions + stack.segment_emb(encoded["image_embeds_position_mask"].ne(0).long())

    def entering(self, model: Any, features: torch.Tensor) -> torch.Tensor:
        """`features` as block 0 receives them on the one-image prompt: scaled, plus positions and the image segment."""
        stack = model._module.text_model.model
        encoded = self.encoded(model)
        return features * stack.embed_scale + self.added(model, encoded)[encoded["image_embeds_position_mask"] == 1]

    def test_zeroing_features_moves_the_logits_and_lands(self, model):
        # Zeroed rows still receive their positions and segment, so they land as `entering` gives zeros.
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
        # The processor writes one image's placeholders per prompt, so a second image has no rows to land at.
        rows, width = model.config.latent_query_num, model.hidden_size
        shapes = rf"value tensor of shape \[{2 * rows}, {width}\] cannot be broadcast .* \[{rows}, {width}\]"
        with pytest.raises(RuntimeError, match=shapes):
            with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
                model.logits.save()

    def test_features_land_at_the_position_mask(self, model):
        encoded = self.encoded(model)
        entries = encoded["image_embeds_position_mask"]
        stack = model._module.text_model.model
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            features = model.vision.image_features.save()
            tokens = model.embed_tokens.output.clone().save()
            first = model.layers[0].layer_input.save()
            box.append((mask, features, tokens, first))
        mask, features, tokens, first = box[0]
        queries = model.config.latent_query_num
        # The placeholders follow bos and `<image>`, one per latent query, and `</image>` closes them.
        assert mask[0].nonzero().flatten().tolist() == list(range(2, 2 + queries))
        assert entries[0, : queries + 3].tolist() == [0, -1, *[1] * queries, -1]
        assert torch.equal(mask, entries == 1)
        assert features.shape == (queries, model.hidden_size)
        added = self.added(model, encoded)
        assert torch.equal(first[mask], features * stack.embed_scale + added[mask])
        assert torch.equal(first[~mask], tokens[~mask] * stack.embed_scale + added[~mask])
        assert moved(tokens[mask], features)
        # The tags keep their own tokens but take the image's segment embedding, not the text's.
        tags = entries == -1
        segments = stack.segment_emb.weight
        with torch.no_grad():
            positions = stack.embed_positions(input_ids=encoded["input_ids"])[tags]
        assert torch.equal(first[tags], tokens[tags] * stack.embed_scale + (positions + segments[1]))
        assert moved(first[tags], tokens[tags] * stack.embed_scale + (positions + segments[0]))

    def test_the_tower_serves_every_value(self, model):
        # `output` reaches the attention as `E_output`, aliased `o_proj`, so the merged heads and the head count read.
        assert {name: reason for name, reason in model.vision.support().items() if reason is not None} == {}
        attn = model.vision.layers[0].self_attn
        assert attn.o_proj._module is attn._module.output
        mlp = model.vision.layers[0].mlp
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            heads = attn.attention_head_outputs.save()
            premix = attn.attention_premix.save()
            activation = mlp.mlp_activation.save()
            up = mlp.up_proj.output.save()
            neurons = mlp.mlp_neurons.save()
            box.append((heads, premix, activation, up, neurons))
        heads, premix, activation, up, neurons = box[0]
        assert heads.shape[-2:] == (model.vision.num_heads, model.vision.head_dim)
        assert torch.equal(premix, heads)
        # The gated MLP: `wi_0` through the activation, times `wi_1`, is what `wo` sums.
        assert torch.equal(neurons, activation * up)

    def test_tower_output_is_the_normed_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            box.append((last, tower, received))
        last, tower, received = box[0]
        with torch.no_grad():
            assert torch.equal(tower, model.vision.norm._module(last))
        # The wrapper scales each normed patch to unit length before the projector.
        assert torch.equal(received, torch.nn.functional.normalize(tower, dim=-1))

    def test_patches_are_the_processor_grid(self, model):
        side = self.IMAGE_SIDE // model.vision.patch_size
        encoded = self.encoded(model)
        assert model.vision.patch_size == PROCESSOR.image_processor.patch_size["height"]
        ids = encoded["flattened_patches"][0, :, :2]
        assert ids.shape[0] == side * side, "the test image should fill the patches with no padding rows"
        expected = torch.cartesian_prod(torch.arange(1, side + 1), torch.arange(1, side + 1)).float()
        assert torch.equal(ids, expected)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.vision.patch_embeddings.save())
        assert box[0].shape == (1, side * side, model.vision.vision_hidden_size)


def text_module(path: Path) -> Any:
    """`Kosmos2_5TextForCausalLM` with the wrapper checkpoint's text weights."""
    from transformers.models.kosmos2_5.modeling_kosmos2_5 import Kosmos2_5TextForCausalLM

    return Kosmos2_5TextForCausalLM.from_pretrained(
        path, key_mapping=TEXT_FAMILY._TEXT_KEY_MAPPING, attn_implementation="eager"
    ).eval()
