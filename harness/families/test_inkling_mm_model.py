"""Inkling over its text model, end to end: a per-tile hierarchical MLP in the tower's place, its final norm the
projector, one image token per tile.

The wrapper's image processor exists only as a torchvision class, so the processor is
built with `InklingImages`, its NumPy stand-in, in its place. The tower takes one
channel (see `INKLING_TOWER`), so the test images are grayscale.
"""

import pytest
import torch

import nnterp
from nnterp import StandardizedTransformer, Unavailable, axis_size
from nnterp_harness.entries.inkling_text import embedding_norm_elsewhere
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, moved, rows, run
from nnterp_harness.vision import VisionSuite, image, prompt_for

skip_unless_known("inkling_mm_model")
FAMILY = family("inkling_mm_model")

if reason := embedding_norm_elsewhere():
    pytest.skip(reason, allow_module_level=True)

from nnterp_harness.entries.inkling_mm_model import inkling_processor  # noqa: E402 - after the skips

PROCESSOR = inkling_processor()
#: A 16-pixel image in 4-pixel tiles: 4 rows of 5 (the processor counts one column more than the image fills).
TILES = 4 * 5


class TestInklingVision(VisionSuite):
    CHECKPOINT = "inkling_mm_model"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    IMAGE_SIDE = 16
    IMAGE_SIZE_FIXED = False

    def images(self, *seeds):
        return [image(seed, self.IMAGE_SIDE).convert("L") for seed in seeds]

    # == the tower has no blocks: its own statements in place of the block ones ===========

    def test_tower_envoys(self, model):
        assert type(model.vision) is FAMILY.Vision
        assert model._aliases["vision"] == "model.vision_tower"
        assert model._aliases["projector"] == "model.vision_tower.final_norm"
        assert "layers" not in model.vision._aliases and model.vision.num_layers == 0

    def test_tower_sizes_are_its_own(self, model):
        vision = model.vision
        assert vision.vision_hidden_size == model.hidden_size
        assert axis_size(vision, "hidden_size") == model.hidden_size
        assert vision.patch_size == 4
        for name in ("num_heads", "head_dim", "intermediate_size"):
            with pytest.raises(Unavailable, match="no blocks"):
                getattr(vision, name)
        with pytest.raises(Unavailable, match="own resolution"):
            vision.image_size  # noqa: B018

    def test_tower_values_read(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            received = model.projector.input.save()
            projected = model.projector.output.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((received, projected, tower, features))
        received, projected, tower, features = box[0]
        last = model.vision._module.encoder_layers[-1]
        assert received.shape == (TILES, 1, 1, 1, model.hidden_size) and not last.add_norm
        assert tower.shape == (1, TILES, model.hidden_size)
        assert torch.equal(tower[0], projected.reshape(TILES, -1))
        assert torch.equal(features, tower[0])

    def test_tower_identity(self, model):
        # Each tile is encoded alone: editing one tile's pixels moves its own feature row only.
        encoded = dict(PROCESSOR(text=prompt_for(model), images=self.images(0), return_tensors="pt"))
        edited = dict(encoded, pixel_values=encoded["pixel_values"].clone())
        edited["pixel_values"][3] = 0.25
        box = []
        for inputs in (encoded, edited):
            with model.trace(inputs):
                box.append(model.vision.image_features.save())
        clean, changed = box
        assert moved(changed[3], clean[3])
        assert torch.equal(torch.cat([changed[:3], changed[4:]]), torch.cat([clean[:3], clean[4:]]))

    def test_tower_pattern_is_not_causal(self, model):
        assert not [name for name in model.vision.support() if "self_attn" in name]

    def test_tower_edit_is_causal(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.projector.input[:] = 0
            box.append((model.vision.image_features.save(), model.logits.save()))
        features, logits = box[0]
        assert moved(features, clean["features"]) and moved(logits, clean["logits"])

    def test_tower_output_writes_land(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.tower_output = torch.zeros(1, TILES, model.hidden_size)
            box.append((model.vision.image_features.save(), model.logits.save()))
        features, logits = box[0]
        assert float(features.abs().max()) == 0.0 and moved(logits, clean["logits"])

    def test_two_images_in_one_invoke(self, model):
        one, two = self.clean(model, 1), self.clean(model, 2)
        assert int(one["mask"].sum()) == TILES
        assert int(two["mask"].sum()) == 2 * TILES and two["features"].shape[0] == 2 * TILES
        assert torch.equal(two["first"][two["mask"]], two["features"])
        assert torch.equal(two["features"][:TILES], one["features"])

    def test_support_lists_the_tower(self, model):
        tower = model.vision.support()
        assert set(tower) == {"image_token_mask", "patch_embeddings", "tower_output", "image_features"}
        assert "no patch embedding" in tower["patch_embeddings"]
        assert all(tower[name] is None for name in ("image_token_mask", "tower_output", "image_features"))
        assert {f"vision.{name}": reason for name, reason in tower.items()}.items() <= model.support().items()


class TestInklingText(FamilySuite):
    CHECKPOINT = "inkling_mm_model"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)

    def test_order_holds_on_every_load(self, model, checkpoint):
        """A text-only dispatched load orders every served value; the lazy load and the image probe cannot run.

        The tower's constructor plans its stage widths with `.item()` on tensors, which
        nnsight's meta device cannot answer, so only a dispatched load exists. `order()`
        on a load with the processor probes with an RGB image, which this checkpoint's
        one-channel tower cannot take (a full-size Inkling's three-channel tower can);
        a load without the processor probes with text alone.
        """
        kwargs = {"attn_implementation": "eager", **self.LOAD_KWARGS}
        with pytest.raises(RuntimeError, match="cannot be called on meta tensors"):
            StandardizedTransformer(str(checkpoint), **kwargs)
        with pytest.raises(RuntimeError, match="cannot be multiplied"):
            model.order(0)
        text = StandardizedTransformer(str(checkpoint), dispatch=True, attn_implementation="eager")
        fresh = StandardizedTransformer(str(checkpoint), dispatch=True, attn_implementation="eager")
        run(text, lambda m: m.logits)
        for index, block in enumerate(model.layers):
            served = {
                name
                for name, host, attr in nnterp.components.block_values(block)
                if attr.reason(host) is None and not isinstance(attr, nnterp.components.DerivedEProperty)
            }
            assert set(text.order(index)) == served, f"block {index}: {sorted(served ^ set(text.order(index)))}"
            assert fresh.order(index) == text.order(index), f"block {index}: the fresh load orders differently"
            for name in served:
                assert fresh.rank(name, index) == text.rank(name, index), name
