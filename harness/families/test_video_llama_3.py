"""VideoLLaMA 3, end to end: a packed NaViT with per-image attention, read out by an MLP, on Qwen2."""

import torch

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("video_llama_3")
FAMILY = family("video_llama_3")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("video_llama_3", "VideoLlama3Processor")}


class TestVideoLlama3Vision(VisionSuite):
    CHECKPOINT = "video_llama_3"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.VideoLlama3Vision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_readout_takes_the_normed_patches(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, features))
        last, tower, received, features = box[0]
        # An image's merge size is one, so the tower's pooling keeps every patch as it is.
        assert torch.equal(received, tower[0])
        assert not torch.equal(tower, last)
        assert features.shape[0] == tower.shape[1]

    def test_patch_embeddings_are_one_row(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append((model.vision.patch_embeddings.save(), model.vision.layers[0].layer_input.save()))
        patches, first = box[0]
        assert torch.equal(patches, first)
        assert patches.shape == (1, first.shape[1], model.vision.vision_hidden_size)


class TestVideoLlama3Text(FamilySuite):
    CHECKPOINT = "video_llama_3"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
