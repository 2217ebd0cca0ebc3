"""DeepSeek-OCR 2, end to end: SAM's grid as the patch rows of a Qwen2-block encoder with learned queries, a linear
projector on the queries' rows, a learned separator after each image, on DeepSeek-V2's mixture with Llama's attention.
"""

import torch

from nnterp.components.deepseek_ocr import DeepseekOcrVision
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import moved
from nnterp_harness.vision import QUESTION, VisionSuite, image, prompt_for

skip_unless_known("deepseek_ocr2")
FAMILY = family("deepseek_ocr2")


def _text_refused() -> str | None:
    """Why the checkpoint's processor refuses a prompt without an image on this release, or `None`."""
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(locate.checkpoint_path("deepseek_ocr2"))
    try:
        processor(text=QUESTION, return_tensors="pt")
    except ValueError as error:
        return f"DeepseekOcr2Processor refuses a prompt without an image on this release: {error}"
    return None


#: An older release's processor takes no text alone, so the text suite has no prompt to run there.
TEXT_REFUSED = _text_refused()


class TestDeepseekOcr2Vision(VisionSuite):
    CHECKPOINT = "deepseek_ocr2"
    FAMILY = FAMILY
    TOWER_ENVOYS = (DeepseekOcrVision, FAMILY.VisionLayer, FAMILY.VisionAttention, FAMILY.VisionMlp)

    def patch_rows(self, model):
        return (model.vision.image_size // model.vision.patch_size) ** 2

    def test_tower_pattern_is_not_causal(self, model):
        # The patches attend to each other both ways and to no query; the queries attend to every patch and
        # causally to each other.
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.vision.layers[0].self_attn.attention_probabilities.save())
        pattern = box[0].detach()
        n = self.patch_rows(model)
        queries = pattern.shape[-1] - n
        assert queries > 0 and pattern.shape[1] == model.vision.num_heads
        assert torch.allclose(pattern.sum(-1), torch.ones(()), atol=1e-5)
        assert float(pattern[..., :n, :n].min()) > 0.0, "the patches do not attend to each other both ways"
        assert float(pattern[..., :n, n:].abs().max()) == 0.0
        assert float(pattern[..., n:, :n].min()) > 0.0
        among = pattern[..., n:, n:]
        above = torch.ones(queries, queries, dtype=torch.bool).triu(1)
        assert float(among[..., above].abs().max()) == 0.0
        assert float(among[..., ~above].min()) > 0.0

    def test_the_encoder_takes_the_patch_rows_then_the_queries(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            box.append((patches, model.vision.layers[0].layer_input.save()))
        patches, first = box[0]
        n = self.patch_rows(model)
        queries = model._module.model.vision_tower.query_768_resolution.weight
        assert patches.shape[1] == n
        assert torch.equal(first[:, :n], patches)
        assert torch.equal(first[:, n:], queries.expand(first.shape[0], -1, -1))

    def test_the_projector_takes_the_query_rows_and_a_separator_follows(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        images, queries, width = projected.shape
        separator = model._module.model.view_separator
        assert images == 2 and tower.shape[1] == self.patch_rows(model) + queries
        assert torch.equal(received, tower[:, -queries:])
        per_image = features.reshape(images, queries + 1, width)
        assert torch.equal(per_image[:, :queries], projected)
        assert torch.equal(per_image[:, queries], separator.expand(images, width))

    def test_writing_the_patch_rows_moves_the_features(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.patch_embeddings[:] = 0
            box.append((model.vision.layers[0].layer_input.save(), model.vision.image_features.save()))
        first, features = box[0]
        assert float(first[:, : self.patch_rows(model)].detach().abs().max()) == 0.0
        assert moved(features, clean["features"])

    def test_a_large_image_adds_its_tiles_before_the_global_view(self, model):
        side = model.processor.image_processor.tile_size * 2
        box = []
        with model.trace(prompt_for(model), images=[image(0, side)]):
            mask = model.vision.image_token_mask.save()
            globe = model.projector.output.save()
            box.append((mask, globe, model.vision.image_features.save()))
        mask, globe, features = box[0]
        queries = globe.shape[1]
        tiles = (features.shape[0] - 1) // queries - 1
        assert tiles >= 2 and features.shape[0] == queries * (tiles + 1) + 1 == int(mask.sum())
        assert torch.equal(features[-queries - 1 : -1], globe[0])
