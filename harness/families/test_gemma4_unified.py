"""Gemma 4 unified, end to end: no tower, raw patches embedded and projected straight into Gemma 4's text blocks.

`vision` is the embedder, a `Vision` with no `layers`. Its image processor exists only
as a torchvision class, so no release here builds the processor; the wrapper runs on
hand-built patches instead (the layout the image processor gives: each merged patch's
pixels in a row, its `(x, y)` on the grid), loaded with the tokenizer in the processor's
place so the load takes images. The default task builds the same
`Gemma4UnifiedForConditionalGeneration` with no processor: a text model served by
`gemma4_unified`, with a `vision` that no image reaches.
"""

import pytest
import torch
from transformers import AutoTokenizer, BatchFeature

from nnterp import StandardizedTransformer, Unavailable, axis_size
from nnterp.components.vision import TEXT_ONLY
from nnterp_harness import locate
from nnterp_harness.head_widths import PerBlockHeadWidthChecks
from nnterp_harness.layer_scalar import LayerScalarChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, moved, rows, ulp_close
from nnterp_harness.vision import QUESTION, image, processor_of

skip_unless_known("gemma4_unified")
FAMILY = family("gemma4_unified")
#: The embedder's input grid for one test image: 4x4 merged patches.
GRID = 4
TOKENIZER = AutoTokenizer.from_pretrained(locate.checkpoint_path("gemma4_unified"))


class TextProcessor:
    """The tokenizer in the processor's place: the load takes images without the torchvision image processor.

    It encodes text as the processor does (a `BatchFeature`); images come as hand-built patches.
    """

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, *args, **kwargs):
        return BatchFeature(dict(self.tokenizer(*args, **kwargs)))

    def __getattr__(self, name):
        return getattr(self.tokenizer, name)


WRAPPER_KWARGS = {"task": "image-text-to-text", "processor": TextProcessor(TOKENIZER)}


def image_inputs(model, seed: int = 0) -> dict:
    """One image of `GRID` x `GRID` merged patches of random pixels, its tokens before `QUESTION`."""
    config = model.config
    side = config.vision_config.patch_size * config.vision_config.pooling_kernel_size
    patches = GRID * GRID
    pixels = torch.rand(1, patches, 3 * side * side, generator=torch.Generator().manual_seed(seed))
    grid = torch.stack(torch.meshgrid(torch.arange(GRID), torch.arange(GRID), indexing="xy"), -1)
    text = TOKENIZER(QUESTION)["input_ids"]
    ids = [config.boi_token_id, *[config.image_token_id] * patches, config.eoi_token_id, *text]
    return {
        "input_ids": torch.tensor([ids]),
        "attention_mask": torch.ones(1, len(ids), dtype=torch.long),
        "pixel_values": pixels,
        "image_position_ids": grid.reshape(1, patches, 2),
    }


class TestGemma4UnifiedEmbedder:
    """The vision contract on an embedder with no blocks."""

    @pytest.fixture(scope="class")
    @classmethod
    def model(cls):
        path = locate.checkpoint_path("gemma4_unified")
        return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager", **WRAPPER_KWARGS)

    @pytest.fixture(scope="class")
    @classmethod
    def text_only(cls):
        path = locate.checkpoint_path("gemma4_unified")
        return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")

    def clean(self, model, seed: int = 0) -> dict:
        box = []
        with model.trace(image_inputs(model, seed)):
            mask = model.vision.image_token_mask.save()
            received = model.projector.input.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            first = model.layers[0].layer_input.save()
            box.append({"mask": mask, "received": received, "tower": tower, "features": features, "first": first})
            box[0]["logits"] = model.logits.save()
        return box[0]

    def test_the_embedder_is_the_vision(self, model):
        assert model.family is FAMILY
        assert type(model.vision) is FAMILY.Vision
        assert model._aliases["vision"] == "model.embed_vision"
        assert model._aliases["projector"] == "model.embed_vision.multimodal_embedder"
        assert "layers" not in model.vision._aliases and model.vision.num_layers == 0

    def test_sizes(self, model):
        vision = model.vision
        assert vision.vision_hidden_size == model.config.vision_config.mm_embed_dim != model.hidden_size
        assert axis_size(vision, "hidden_size") == model.hidden_size
        assert vision.patch_size == 8
        for name in ("num_heads", "head_dim", "intermediate_size"):
            with pytest.raises(Unavailable, match="no tower"):
                getattr(vision, name)
        with pytest.raises(Unavailable, match="own resolution"):
            vision.image_size  # noqa: B018

    def test_features_are_block_zero_input_at_the_mask(self, model):
        run = self.clean(model)
        mask, features = run["mask"], run["features"]
        assert mask.dtype == torch.bool and int(mask.sum()) == GRID * GRID
        assert features.shape == (GRID * GRID, model.hidden_size)
        assert torch.equal(run["first"][mask], features)

    def test_the_projector_reads_the_embedded_patches(self, model):
        run = self.clean(model)
        assert torch.equal(run["received"], run["tower"])
        assert run["tower"].shape == (1, GRID * GRID, model.vision.vision_hidden_size)

    def test_patch_embeddings_read_and_land(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(image_inputs(model)):
            patches = model.vision.patch_embeddings.save()
            model.vision.patch_embeddings[:] = 0
            box.append((patches, model.vision.image_features.save()))
        patches, features = box[0]
        assert patches.shape == (1, GRID * GRID, model.vision.vision_hidden_size)
        assert moved(features, clean["features"])

    def test_zeroing_features_moves_the_logits_and_lands(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(image_inputs(model)):
            mask = model.vision.image_token_mask.save()
            model.vision.image_features[:] = 0
            box.append((mask, model.layers[0].layer_input.save(), model.logits.save()))
        mask, first, logits = box[0]
        assert float(first[mask].detach().abs().max()) == 0.0
        assert torch.equal(first[~mask], clean["first"][~clean["mask"]])
        assert moved(logits, clean["logits"])

    def test_features_from_another_image(self, model):
        other = self.clean(model, seed=1)
        own = self.clean(model)
        assert moved(own["logits"], other["logits"]), "two images give the same logits"
        box = []
        with model.trace(image_inputs(model)):
            model.vision.image_features[:] = other["features"]
            box.append(model.logits.save())
        assert ulp_close(box[0], other["logits"])

    def test_support_lists_the_embedder(self, model):
        tower = model.vision.support()
        assert tower == {
            name: None for name in ("image_token_mask", "patch_embeddings", "tower_output", "image_features")
        }
        assert {f"vision.{name}": None for name in tower}.items() <= model.support().items()

    def test_the_processor(self, model):
        try:
            from transformers.models.gemma4.feature_extraction_gemma4 import Gemma4AudioFeatureExtractor

            processor = processor_of(
                "gemma4_unified", "Gemma4UnifiedProcessor", feature_extractor=Gemma4AudioFeatureExtractor()
            )
        except ImportError as error:
            pytest.skip(f"Gemma4UnifiedProcessor cannot be built on this release: {error!r}")
        encoded = processor(text="<image_soft_token>" + QUESTION, images=[image(0)], return_tensors="pt")
        box = []
        with model.trace(dict(encoded)):
            mask = model.vision.image_token_mask.save()
            features = model.vision.image_features.save()
            box.append((mask, features, model.layers[0].layer_input.save()))
        mask, features, first = box[0]
        assert int(mask.sum()) > 0 and torch.equal(first[mask], features)

    def test_text_only_load_has_no_images(self, text_only):
        assert type(text_only._module).__name__ == "Gemma4UnifiedForConditionalGeneration"
        assert text_only.processor is None
        assert text_only.vision.no_images() == TEXT_ONLY
        assert text_only.vision.support() == {}
        assert not [name for name in text_only.support() if name.startswith("vision")]
        with pytest.raises(Unavailable, match="text-only load"):
            with text_only.trace(QUESTION):
                text_only.vision.image_features.save()

    def test_the_default_task_runs_the_wrappers_text_model(self, model, text_only):
        assert text_only.family is FAMILY
        box = []
        with model.trace(QUESTION):
            box.append(model.logits.save())
        with text_only.trace(QUESTION):
            box.append(text_only.logits.save())
        assert ulp_close(box[0], box[1])


class TestGemma4UnifiedText(FamilySuite):
    CHECKS = (LayerScalarChecks, PerBlockHeadWidthChecks)
    CHECKPOINT = "gemma4_unified"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    MLP_NORM = "pre_feedforward_layernorm"
    LOAD_KWARGS = WRAPPER_KWARGS


class TestGemma4UnifiedDefaultTask(TestGemma4UnifiedText):
    """The default-task load, a text model: the whole family contract on the same text stack."""

    LOAD_KWARGS = {}
