"""MiniMax-M3-VL, end to end: a packed ViT with per-image attention and a two-stage projector that merges 2x2
patch groups, on MiniMax-M3's text model (an indexer-masked sparse block and a scaled sigmoid mixture)."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.towers import QwenVisionSuite
from nnterp_harness.vision import processor_of, prompt_for

skip_unless_known("minimax_m3_vl")
FAMILY = family("minimax_m3_vl")
#: The text family whose classes the wrapper's text model gets.
TEXT_FAMILY = family("minimax_m3_vl_text")
#: Built from the checkpoint's parts: the wrapper's own image processor needs torchvision.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("minimax_m3_vl", "MiniMaxM3VLProcessor")}


class TestMinimaxM3VlVision(QwenVisionSuite):
    CHECKPOINT = "minimax_m3_vl"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_projector_merges_2x2_groups_of_the_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, projected, features))
        last, tower, received, projected, features = box[0]
        assert torch.equal(tower, last) and torch.equal(received, tower[0])
        assert torch.equal(projected, features)
        assert features.shape[0] * 4 == tower.shape[1]


class TestMinimaxM3VlText(FamilySuite):
    CHECKPOINT = "minimax_m3_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (TEXT_FAMILY.Mlp,)
    MLP_WIDTH_KEY = "dense_intermediate_size"
    # The gate and up projections are one module, so the neurons are held to `down_proj.input`.
    NEURONS_FROM_ACTIVATION = False
