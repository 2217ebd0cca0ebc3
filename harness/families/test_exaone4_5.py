"""EXAONE 4.5, end to end: the Qwen2.5 ViT with grouped key/value heads and window attention, its merger as
projector, on EXAONE 4's post-norm text model."""

import torch

from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.post_norm import PostNormChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("exaone4_5")
FAMILY = family("exaone4")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("exaone4_5", "Exaone4_5_Processor")}


class TestExaone4_5Vision(VisionSuite):
    CHECKPOINT = "exaone4_5"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_tower_keeps_the_window_order(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            first = model.vision.layers[0].layer_input.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((patches, first, received, projected, features))
        patches, first, received, projected, features = box[0]
        # Block 0 reads the patches reordered into windows, and the merger's output is put back.
        assert not torch.equal(patches, first)
        assert torch.equal(patches.sort(dim=1).values, first.sort(dim=1).values)
        assert not torch.equal(projected, features)
        assert torch.equal(projected.sort(dim=0).values, features.sort(dim=0).values)

    def test_the_keys_have_fewer_heads_than_the_queries(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            attn = model.vision.layers[0].self_attn
            box.append((attn.attention_queries.save(), attn.attention_keys.save()))
        queries, keys = box[0]
        config = model.vision.tower_config
        assert queries.shape[1] == config.num_heads and keys.shape[1] == config.num_key_value_heads < config.num_heads


class TestExaone4_5Text(PostNormChecks, FamilySuite):
    CHECKPOINT = "exaone4_5"
    FAMILY = FAMILY
    # A post-norm block: no norm feeds either sublayer.
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", ln1=None, ln2=None)
    LOAD_KWARGS = LOAD_KWARGS
