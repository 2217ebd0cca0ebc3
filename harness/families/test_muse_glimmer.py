"""Muse Glimmer, end to end: a packed, windowed MoonViT-style tower with per-image attention, a final norm and a 2x2
pixel shuffle, a two-layer adapter as projector, and a Gemma-2-style sandwich text model with gated attention.

The text stack runs the family's suite on the wrapper's text model: transformers has no causal-LM class for
`muse_glimmer_text`. The wrapper's image processor exists only as a torchvision class, so the processor is built
with `MuseImages`, its PIL and NumPy stand-in, in its place, and no video processor.
"""

import numpy as np
import torch

from nnterp.components import VisionLayer, VisionMlp
from nnterp.components.muse_vision import MuseVision
from nnterp.components.vision import MoonVisionAttention
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import QwenVisionSuite
from nnterp_harness.vision import prompt_for

skip_unless_known("muse_glimmer")
FAMILY = family("muse_glimmer")

from nnterp_harness.entries.muse_glimmer import muse_processor  # noqa: E402 - after the skip

PROCESSOR = muse_processor()
PROMPT = "The Eiffel Tower is in"


class TestMuseGlimmerVision(QwenVisionSuite):
    CHECKPOINT = "muse_glimmer"
    FAMILY = FAMILY
    TOWER_ENVOYS = (MuseVision, VisionLayer, MoonVisionAttention, VisionMlp)
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_stand_in_cuts_temporal_major_patches(self):
        # `MuseGlimmerImageProcessor.patchify`'s layout: row-major patches, each `(temporal, channels, patch, patch)`.
        picture = self.images(0)[0]
        batch = self.LOAD_KWARGS["processor"].image_processor([picture])
        side, patch = self.IMAGE_SIDE // 8, 8
        pixels = torch.from_numpy((np.asarray(picture.convert("RGB"), np.float32) / 255.0 - 0.5) / 0.5)
        expected = pixels.permute(2, 0, 1).reshape(3, side, patch, side, patch).permute(1, 3, 0, 2, 4)
        rows = batch["pixel_values"].reshape(side, side, 2, 3, patch, patch)
        assert torch.equal(rows[:, :, 0], expected) and torch.equal(rows[:, :, 1], expected)
        assert batch["image_grid_thw"].tolist() == [[1, side, side]]

    def test_tower_output_is_the_final_norm_before_the_shuffle(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            shuffled = model.vision.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, shuffled, received, projected, features))
        last, tower, shuffled, received, projected, features = box[0]
        side = self.IMAGE_SIDE // model.vision.patch_size
        width = model.vision.vision_hidden_size
        assert not torch.equal(tower, last)
        # Each projector row holds one 2x2 block of the patch grid, channel-major over its four patches.
        grid = tower[0].reshape(side // 2, 2, side // 2, 2, width).permute(0, 2, 4, 1, 3)
        assert torch.equal(received, grid.reshape(-1, 4 * width))
        assert torch.equal(received, shuffled.last_hidden_state)
        assert features.shape[0] * 4 == tower.shape[1] and features.shape[-1] == model.hidden_size
        # The projection and the weightless norm sit between the projector and the scatter.
        assert projected.shape[-1] != model.hidden_size

    def test_the_blocks_run_in_window_order(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            normed = model.vision.ln_pre.output.save()
            first = model.vision.layers[0].layer_input.save()
            box.append((patches, first, normed))
        patches, first, normed = box[0]
        side = self.IMAGE_SIDE // model.vision.patch_size
        window = model.vision.tower_config.pos_emb_height
        width = model.vision.vision_hidden_size
        # Four windows of 2x2 patches, each window's patches in row-major order, the windows row-major too.
        grid = normed.reshape(side // window, window, side // window, window, width).permute(0, 2, 1, 3, 4)
        assert torch.equal(first[0], grid.reshape(-1, width))
        assert not torch.equal(first[0], normed) and patches.shape == first.shape

    def test_windowed_and_full_blocks_rebuild_from_their_own_spans(self, model):
        # Block 0 attends within each window of 2x2 patches, block 1 within each whole image.
        window = model.vision.tower_config.pos_emb_height**2
        for block, span in ((0, window), (1, (self.IMAGE_SIDE // model.vision.patch_size) ** 2)):
            attn = model.vision.layers[block].self_attn
            box = []
            with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
                box.append((attn.attention_queries.save(), attn.attention_keys.save(), attn.attention_values.save()))
            with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
                box.append(attn.attention_head_outputs.save())
            (q, k, v), heads = box
            patches = q.shape[2]
            assert q.shape == k.shape == v.shape == (1, model.vision.num_heads, patches, model.vision.head_dim)
            assert heads.shape == (1, patches, model.vision.num_heads, model.vision.head_dim)
            for start in range(0, patches, span):
                rows = slice(start, start + span)
                scores = q[0, :, rows] @ k[0, :, rows].transpose(-1, -2) * model.vision.head_dim**-0.5
                mixed = scores.softmax(-1) @ v[0, :, rows]
                assert torch.allclose(mixed.transpose(0, 1), heads[0, rows], atol=1e-5), (block, start)
            # Over a wider span the rebuild differs: the spans are real.
            rows = slice(0, 2 * span)
            scores = q[0, :, rows] @ k[0, :, rows].transpose(-1, -2) * model.vision.head_dim**-0.5
            assert not torch.allclose((scores.softmax(-1) @ v[0, :, rows]).transpose(0, 1), heads[0, rows], atol=1e-5)

    def test_features_are_the_normed_projection(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((projected, features))
        projected, features = box[0]
        native = model._module.model
        expected = native.perception_emb_norm(native.vision_projection(projected))
        assert torch.allclose(features, expected, atol=1e-6)
        assert torch.allclose(features.pow(2).mean(-1), torch.ones(()), atol=1e-3)
