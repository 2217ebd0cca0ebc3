"""HyperCLOVA X Vision V2, end to end: the packed Qwen2.5 ViT with window attention, its merger restoring the
raster order, a linear projector to the text width, on HyperCLOVA X's scaled sandwich block; then the text stack
on the same checkpoint."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, run
from nnterp_harness.towers import QwenVisionSuite
from nnterp_harness.vision import processor_of, prompt_for

skip_unless_known("hyperclovax_vision_v2")
FAMILY = family("hyperclovax_vision_v2")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {
    "task": "image-text-to-text",
    "processor": processor_of("hyperclovax_vision_v2", "HyperCLOVAXVisionV2Processor"),
}


class TestHyperCLOVAXVisionV2Vision(QwenVisionSuite):
    CHECKPOINT = "hyperclovax_vision_v2"
    FAMILY = FAMILY
    IMAGE_SIDE = 64
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}
    EMBEDDING_SCALE = "embedding_multiplier"

    def test_the_projector_reads_the_merger_in_raster_order(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            first = model.vision.layers[0].layer_input.save()
            merged = model.vision.merger.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((patches, first, merged, received, projected, features))
        patches, first, merged, received, projected, features = box[0]
        # Block 0 reads the patches reordered into windows; the merger's output is put back before the projector.
        assert not torch.equal(patches, first)
        assert torch.equal(patches.sort(dim=1).values, first.sort(dim=1).values)
        assert not torch.equal(merged, received)
        assert torch.equal(merged.sort(dim=0).values, received.sort(dim=0).values)
        width = model.vision.tower_config.out_hidden_size
        assert received.shape[-1] == width != model.hidden_size
        assert torch.equal(projected, features)

    def test_block_zero_receives_the_scaled_features(self, model):
        # `VisionSuite` compares block 0 with the features times the scale; the scale must not be one.
        clean = self.clean(model)
        assert model.config.get_text_config().embedding_multiplier != 1.0
        assert not torch.equal(clean["first"][clean["mask"]], clean["features"])


class TestHyperCLOVAXVisionV2Text(FamilySuite):
    CHECKPOINT = "hyperclovax_vision_v2"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS

    def test_logits_are_the_head_times_the_text_scale(self, model):
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        scale = model.config.get_text_config().logits_scaling
        assert scale != 1.0
        assert torch.equal(logits, head * scale)
