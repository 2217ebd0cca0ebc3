"""MiniCPM-V 4.7, end to end: the packed NaViT tower with its window merger, the merging projector, the hybrid text model."""

import torch

from nnterp.components import VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, ulp_close
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("minicpmv4_7")
FAMILY = family("minicpmv4_7")
from nnterp_harness.entries.minicpmv4_7 import SIDE, images_only_processor  # noqa: E402 - after the skip

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = images_only_processor()


class TestMiniCPMV4_7Vision(VisionSuite):
    CHECKPOINT = "minicpmv4_7"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.MiniCPMVision, VisionLayer, FAMILY.MiniCPMVisionAttention, VisionMlp)
    IMAGE_SIDE = SIDE
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_tower_values_read(self, model):
        # The window merger after block 0 leaves block 1 and the tower's output a quarter of the patches.
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            first = model.vision.layers[0].layer_output.save()
            last = model.vision.layers[1].layer_input.save()
            tower = model.vision.tower_output.save()
            box.append((patches, first, last, tower))
        patches, first, last, tower = box[0]
        width = model.vision.vision_hidden_size
        grid = (SIDE // model.vision.patch_size) ** 2
        assert patches.shape == first.shape == (1, grid, width)
        assert last.shape == tower.shape == (1, grid // 4, width)

    def test_the_window_merger_sits_between_the_blocks(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            first = model.vision.layers[0].layer_output.save()
            entering = model.vision.vit_merger.input.save()
            merged = model.vision.vit_merger.output.save()
            last = model.vision.layers[1].layer_input.save()
            box.append((first, entering, merged, last))
        first, entering, merged, last = box[0]
        assert torch.equal(entering, first) and torch.equal(merged, last)
        assert merged.shape[1] * 4 == first.shape[1]

    def test_the_projector_merges_2x2_groups_of_the_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        assert torch.equal(received, tower)
        assert len(projected) == 2 and torch.equal(torch.cat(list(projected)), features)
        assert features.shape[0] * 4 == tower.shape[1]

    def test_premix_write_lands(self, model):
        attn = model.vision.layers[0].self_attn
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            premix = attn.attention_premix
            attn.attention_premix = torch.zeros_like(premix)
            box.append((premix.save(), attn.o_proj.input.save(), attn.attention_output.save()))
        premix, entering, output = box[0]
        assert premix.shape[-2:] == (attn.num_heads, attn.head_dim)
        assert entering.shape == (1, premix.shape[1], model.vision.vision_hidden_size)
        assert float(entering.abs().max()) == 0.0
        bias = model.vision._module.encoder.layers[0].self_attn.out_proj.bias
        assert ulp_close(output, bias.expand_as(output))

    def test_the_text_only_load_runs_the_same_text_model(self, model, text_only):
        box = []
        with model.trace("The Eiffel Tower is in"):
            box.append(model.logits.save())
        with text_only.trace("The Eiffel Tower is in"):
            box.append(text_only.logits.save())
        assert ulp_close(box[0], box[1])


class TestMiniCPMV4_7Text(FamilySuite):
    CHECKPOINT = "minicpmv4_7"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", attn=None)
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = ROUTING_NEEDED
    QUERY_GATED = True
    PREMIX_IS_HEAD_OUTPUTS = False
