"""Qwen2-VL, end to end: the packed Qwen ViT with per-image attention, its merger as projector."""

import torch

from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("qwen2_vl")
FAMILY = family("qwen2_vl_text")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen2_vl", "Qwen2VLProcessor")}


class TestQwen2VLVision(VisionSuite):
    CHECKPOINT = "qwen2_vl"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

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
        # Each image's patches attend among themselves only: rebuild one head per image from q, k, v.
        half = patches // 2
        for rows_ in (slice(0, half), slice(half, patches)):
            scores = q[0, :, rows_] @ k[0, :, rows_].transpose(-1, -2) * model.vision.head_dim**-0.5
            mixed = scores.softmax(-1) @ v[0, :, rows_]
            assert torch.allclose(mixed.transpose(0, 1), heads[0, rows_], atol=1e-5)

    def test_the_merger_runs_inside_the_tower(self, model):
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


class TestQwen2VLText(FamilySuite):
    CHECKPOINT = "qwen2_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
