"""Checks shared by wrappers built on the same tower design, declared in a `VisionSuite`'s (or `FamilySuite`'s) `CHECKS`.

- The packed ViTs of the Qwen-VL line run every image's patches as one row and attend
  within each image only (the pattern is unavailable: `PER_IMAGE`); a merger turns each
  group of `MERGED_PATCHES` neighbouring patches into one image token.
- Qwen3-VL's text model re-adds chosen tower blocks to the image rows after its first
  text blocks (`layers[k].deepstack_output`).
- GLM-4V's ViT ends in a norm, a downsample convolution and a gated merger.
- InternViT scales each sublayer's output per channel, keeps a CLS row, and the
  wrapper pixel-shuffles the patch grid before the projector.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from nnterp import Unavailable
from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE, TEXT_ONLY

from .helpers import moved, ulp_close
from .vision import QUESTION, VisionSuite, logits_of, prompt_for

#: What a text prompt reports for a deepstack tap: the generic reads of `FamilySuite` reach none.
NO_TAP = {"deepstack_output": "no deepstack tap"}


class QwenVisionSuite(VisionSuite):
    """`VisionSuite` for a packed Qwen ViT: its envoys, the per-image pattern reason, images of any size."""

    TOWER_ENVOYS = (QwenVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False


class MergerChecks:
    """The merger sits inside the tower: it reads the last block's rows and its output is the image features."""

    #: Patches per image token (a 2x2 merge); `None` leaves the count unchecked.
    MERGED_PATCHES: int | None = 4

    def test_the_merger_projects_groups_of_the_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((last, received, projected, tower, features))
        last, received, projected, tower, features = box[0]
        assert torch.equal(received, last[0]) and torch.equal(tower, last)
        assert torch.equal(projected, features)
        if self.MERGED_PATCHES is not None:
            assert features.shape[0] * self.MERGED_PATCHES == tower.shape[1]


class PerImageHeadsChecks:
    """The tower serves its queries, keys and values whole, and each image's rows attend among themselves only."""

    def test_queries_keys_and_values_are_served_whole(self, model):
        attn = model.vision.layers[0].self_attn
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append((attn.attention_queries.save(), attn.attention_keys.save(), attn.attention_values.save()))
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append((model.vision.layers[0].layer_input.save(), attn.attention_head_outputs.save()))
        (q, k, v), (stream, heads) = box
        patches = stream.shape[1]
        for value in (q, k, v):
            assert value.shape == (1, model.vision.num_heads, patches, model.vision.head_dim)
        assert heads.shape == (1, patches, model.vision.num_heads, model.vision.head_dim)
        # Rebuild every head of each image from its own queries, keys and values alone.
        half = patches // 2
        for image_rows in (slice(0, half), slice(half, patches)):
            scores = q[0, :, image_rows] @ k[0, :, image_rows].transpose(-1, -2) * model.vision.head_dim**-0.5
            mixed = scores.softmax(-1) @ v[0, :, image_rows]
            assert torch.allclose(mixed.transpose(0, 1), heads[0, image_rows], atol=1e-5)


class DeepstackChecks:
    """Deepstack taps after the first `TAPS` text blocks: each re-adds a tower block to the image rows only."""

    #: How many text blocks a tap follows (the length of `deepstack_visual_indexes`).
    TAPS = 2

    def test_features_from_another_image(self, model):
        # The taps carry the image too: the features alone move the logits but do not swap the image.
        prompt = prompt_for(model)
        box = []
        with model.trace(prompt, images=self.images(1)):
            features = model.vision.image_features.save()
            box.append((features, [block.deepstack_output.save() for block in model.layers[: self.TAPS]]))
            box.append(model.logits.save())
        (features, stacked), other_logits = box
        own = logits_of(model, prompt, self.images(0))
        assert moved(own, other_logits), "two images give the same logits"

        def features_only(m: Any) -> None:
            m.vision.image_features[:] = features

        def both(m: Any) -> None:
            m.vision.image_features[:] = features
            for block, tapped in zip(m.layers[: self.TAPS], stacked):
                block.deepstack_output[:] = tapped

        half = logits_of(model, prompt, self.images(0), features_only)
        assert moved(half, own) and moved(half, other_logits)
        assert ulp_close(logits_of(model, prompt, self.images(0), both), other_logits)

    def test_each_tap_adds_to_the_image_rows_only(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            for block, following in zip(model.layers[: self.TAPS], model.layers[1 : self.TAPS + 1]):
                out = block.layer_output.save()
                stacked = block.deepstack_output.save()
                box.append((out, stacked, following.layer_input.save()))
        for index, (out, stacked, following) in enumerate(box):
            assert torch.equal(following, stacked), f"text block {index + 1} does not receive the tapped stream"
            assert torch.equal(stacked[~mask], out[~mask]), f"tap {index} moves the text rows"
            assert moved(stacked[mask], out[mask]), f"tap {index} adds nothing"

    def test_a_tap_write_lands(self, model):
        clean = self.clean(model)
        last = self.TAPS - 1
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            model.layers[last].deepstack_output[mask] = 0
            box.append((mask, model.layers[last + 1].layer_input.save(), model.logits.save()))
        mask, following, logits = box[0]
        assert float(following[mask].detach().abs().max()) == 0.0
        assert moved(logits, clean["logits"])

    def test_blocks_past_the_taps_have_none(self, model):
        support = model.support()["deepstack_output"]
        assert list(support) == list(range(self.TAPS, len(model.layers))), support
        assert all("no deepstack tap" in reason for reason in support.values()), support
        with pytest.raises(Unavailable, match="no deepstack tap"):
            with model.trace(prompt_for(model), images=self.images(0)):
                model.layers[self.TAPS].deepstack_output.save()

    def test_the_text_only_load_has_no_taps(self, text_only):
        support = text_only.support()["deepstack_output"]
        assert all(reason == TEXT_ONLY for reason in support.values()), support
        with pytest.raises(Unavailable, match="text-only load"):
            with text_only.trace(QUESTION):
                text_only.layers[0].deepstack_output.save()


class DeepstackTextChecks:
    """`FamilySuite` on a deepstack text stack: the taps' per-block support, held apart from the generic check.

    A text prompt reaches no tap, so the generic reads skip `deepstack_output`
    (`NO_TAP` belongs in the class's `EXPECTED_UNAVAILABLE`); the taps are read with
    an image in `DeepstackChecks`.
    """

    #: How many text blocks a tap follows.
    TAPS = 2

    def test_support_is_what_this_family_expects(self, model, monkeypatch):
        taps = model.support()["deepstack_output"]
        assert set(taps) == set(range(self.TAPS, len(model.layers))), taps
        assert all("no deepstack tap follows this block" in reason for reason in taps.values()), taps
        whole = type(model).support

        def without_taps(self: Any, *args: Any, **kwargs: Any) -> dict:
            return {key: entry for key, entry in whole(self, *args, **kwargs).items() if key != "deepstack_output"}

        monkeypatch.setattr(type(model), "support", without_taps)
        super().test_support_is_what_this_family_expects(model)


class WindowOrderChecks:
    """A windowed tower (Qwen2.5-VL's): block 0 reads the patches reordered into windows, the merger restores the order."""

    def test_the_tower_keeps_the_window_order(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            first = model.vision.layers[0].layer_input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((patches, first, projected, features))
        patches, first, projected, features = box[0]
        assert not torch.equal(patches, first)
        assert torch.equal(patches.sort(dim=1).values, first.sort(dim=1).values)
        assert not torch.equal(projected, features)
        assert torch.equal(projected.sort(dim=0).values, features.sort(dim=0).values)


class GlmTowerChecks:
    """The GLM-4V ViT's layout: a final norm (`tower_output`), a 2x2 downsample convolution, a gated merger."""

    def test_tower_output_is_the_final_norm_before_the_downsample(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            normed = model.vision.norm.output.save()
            tower = model.vision.tower_output.save()
            merged = model.vision.downsample.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, normed, tower, merged, received, projected, features))
        last, normed, tower, merged, received, projected, features = box[0]
        merged = merged.flatten(1)  # the convolution's [groups, width, 1, 1]
        assert torch.equal(tower[0], normed) and not torch.equal(tower, last)
        assert merged.shape[0] * 4 == tower.shape[1] and merged.shape[-1] == model.hidden_size
        assert torch.equal(received, merged)
        assert torch.equal(projected, features)

    def test_the_block_mlp_is_out_hidden_size_wide(self, model):
        config = model.vision.tower_config
        assert model.vision.intermediate_size == config.out_hidden_size != config.intermediate_size


class InternViTChecks:
    """InternViT's layer-scaled sublayers, and the wrapper's pixel shuffle without the CLS row before the projector."""

    def test_the_contributions_are_layer_scaled(self, model):
        block = model.vision.layers[0]
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            raw_attn = block.self_attn.output[0].save()
            attn = block.self_attn.attention_output.save()
            raw_mlp = block.mlp.output.save()
            mlp = block.mlp.mlp_output.save()
            box.append((raw_attn, attn, raw_mlp, mlp))
        raw_attn, attn, raw_mlp, mlp = box[0]
        assert torch.equal(attn, block._module.lambda_1 * raw_attn)
        assert torch.equal(mlp, block._module.lambda_2 * raw_mlp)

    def test_the_projector_takes_the_shuffled_patches_without_cls(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        side = model.vision.image_size // model.vision.patch_size
        factor = int(1 / model.config.downsample_ratio)
        assert tower.shape[1] == side * side + 1
        assert received.shape[1:] == (side * side // factor**2, tower.shape[-1] * factor**2)
        assert torch.equal(projected.reshape(features.shape), features)
