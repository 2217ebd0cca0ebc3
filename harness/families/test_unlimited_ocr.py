"""Unlimited-OCR, end to end: SAM's grid as the patch rows of a CLIP encoder with a class row, a linear projector on
each patch's encoder and SAM rows side by side, a learned newline after each grid row and a separator after each
image, on DeepSeek-OCR 2's mixture text model.

`UnlimitedOcrImageProcessor` is a torchvision class, so the processor is built from the
checkpoint's parts (`unlimited_ocr_processor`), its image processor the entry's PIL one.
"""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import moved
from nnterp_harness.vision import VisionSuite, image, prompt_for

skip_unless_known("unlimited_ocr")
FAMILY = family("unlimited_ocr")

from nnterp_harness.entries.unlimited_ocr import unlimited_ocr_processor  # noqa: E402 - after the skip

PROCESSOR = unlimited_ocr_processor()


def _grid(features, side, width):
    """Rows of an image's laid-out grid: `side` rows of `side` projected patches, each followed by the newline."""
    return features.reshape(side, side + 1, width)


class TestUnlimitedOcrVision(VisionSuite):
    CHECKPOINT = "unlimited_ocr"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    TOWER_ENVOYS = (FAMILY.OcrVision, FAMILY.VisionLayer, FAMILY.VisionAttention, FAMILY.VisionMlp)

    def side(self, model):
        return model.vision.image_size // model.vision.patch_size

    def test_the_encoder_runs_on_a_class_row_then_the_patch_rows(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            first = model.vision.layers[0].layer_input.save()
            tower = model.vision.tower_output.save()
            box.append((patches, first, tower))
        patches, first, tower = box[0]
        n = self.side(model) ** 2
        assert patches.shape[1] == n
        assert first.shape[1] == tower.shape[1] == n + 1

    def test_the_projector_takes_each_patch_row_beside_its_sam_row(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            patches = model.vision.patch_embeddings.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            box.append((patches, tower, received))
        patches, tower, received = box[0]
        assert patches.shape[0] == tower.shape[0] == received.shape[0] == 2
        assert torch.equal(received, torch.cat([tower[:, 1:], patches], dim=-1))

    def test_features_are_the_grid_with_newline_rows_then_a_separator(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((projected, features))
        projected, features = box[0]
        images, patches, width = projected.shape
        side = self.side(model)
        newline = model._module.model.image_newline
        separator = model._module.model.view_separator
        per_image = features.reshape(images, side * (side + 1) + 1, width)
        assert images == 2 and patches == side * side
        for index in range(images):
            grid = _grid(per_image[index, :-1], side, width)
            assert torch.equal(grid[:, :side].reshape(-1, width), projected[index])
            assert torch.equal(grid[:, side], newline.expand(side, width))
            assert torch.equal(per_image[index, -1], separator)

    def test_writing_the_patch_rows_moves_the_features(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.patch_embeddings[:] = 0
            box.append((model.projector.input.save(), model.vision.image_features.save()))
        received, features = box[0]
        width = model.vision.vision_hidden_size
        assert float(received[..., width:].detach().abs().max()) == 0.0
        assert moved(features, clean["features"])

    def test_writing_the_tower_output_reaches_the_projector(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.tower_output[:] = 0
            box.append(model.projector.input.save())
        width = model.vision.vision_hidden_size
        received = box[0].detach()
        assert float(received[..., :width].abs().max()) == 0.0
        assert float(received[..., width:].abs().max()) > 0.0

    def test_a_large_image_adds_its_tiles_before_the_global_view(self, model):
        tile = model.processor.image_processor.tile_size
        # The projector runs twice, on the global view then on all tiles; a hook keeps both calls' outputs.
        calls = []
        handle = model.projector._module.register_forward_hook(lambda _, __, out: calls.append(out.detach()))
        try:
            box = []
            with model.trace(prompt_for(model), images=[image(0, tile * 2)]):
                box.append((model.vision.image_token_mask.save(), model.vision.image_features.save()))
        finally:
            handle.remove()
        mask, features = box[0]
        globe, tiles = calls
        width, side = globe.shape[-1], self.side(model)
        columns = rows = 2
        assert globe.shape[0] == 1 and tiles.shape[0] == columns * rows
        local = (rows * side) * (columns * side + 1)
        assert features.shape[0] == local + side * (side + 1) + 1 == int(mask.sum())
        laid = features[:local].reshape(rows * side, columns * side + 1, width)
        # Tile (row r, column c)'s patch row i is row r * side + i of the laid-out grid, columns c * side onwards.
        for index in range(columns * rows):
            row, column = divmod(index, columns)
            block = laid[row * side : (row + 1) * side, column * side : (column + 1) * side]
            assert torch.equal(block.reshape(-1, width), tiles[index])
        newline = model._module.model.image_newline
        assert torch.equal(laid[:, -1], newline.expand(rows * side, width))
        view = _grid(features[local:-1], side, width)
        assert torch.equal(view[:, :side].reshape(-1, width), globe[0])
