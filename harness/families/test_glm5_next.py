"""GLM-5.3-Flash, end to end: GLM-OCR's packed ViT under an axial rotary (per-head query and key norms, per-image
attention, no position grid, a final norm), a 2x2 downsample convolution and a gated merger as projector, on the
hyper-connection hybrid of a forget-gated Kimi delta attention block and an indexed latent attention block with a
grouped mixture.

The text stack runs the text family's suite, its hyper-connection, recurrent and mixture checks among it, on the
wrapper's text model; the image enters the one embedded stream before the model copies it into every stream.
"""

import inspect

import torch

from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("glm5_next")
FAMILY = family("glm5_next")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm5_next", "Glm5NextProcessor")}

#: Whether this release caches the latent and decompresses the keys and values after the cache, so the values reach
#: the interface as a split view that refuses an in-place edit; a release that caches the decompressed keys and
#: values (5.17) hands the interface the cache's own tensors, which take one.
SPLIT_VALUES = ".update(k_pass, k_rot" in inspect.getsource(family("glm5_next_text").Glm5NextTextAttention.forward)

#: A prompt longer than the indexer keeps keys per query (`index_topk` plus the unfinished pool's tail).
LONG_PROMPT = "The Eiffel Tower is in Paris, and the Colosseum is in Rome."


class TestGlm5NextVision(VisionSuite):
    CHECKPOINT = "glm5_next"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.Glm5NextVision, FAMILY.VisionLayer, FAMILY.QwenVisionAttention, FAMILY.VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def one_stream(self, first):
        return first[:, :, 0]

    def test_the_wrapper_is_glm5_next_under_its_pil_image_processor(self, model):
        assert type(model._module).__name__ == "Glm5NextForConditionalGeneration"
        assert type(model.processor.image_processor).__name__ == "Glm5NextImageProcessorPil"

    def test_every_stream_enters_with_the_image(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.layers[0].layer_input.save())
        first = box[0]
        streams = model.config.get_text_config().hc_mult
        assert first.shape[2] == streams > 1
        for stream in range(1, streams):
            assert torch.equal(first[:, :, stream], first[:, :, 0]), f"stream {stream} is not the embedded stream"

    def test_the_patches_enter_the_first_block_unchanged(self, model):
        # No position grid and no norm after the patch convolution: block 0 reads the convolution's output.
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append((model.vision.patch_embeddings.save(), model.vision.layers[0].layer_input.save()))
        patches, first = box[0]
        assert torch.equal(patches, first)

    def test_the_merger_projects_the_downsampled_final_norm(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            merged = model.vision.downsample.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, merged, received, projected, features))
        last, tower, merged, received, projected, features = box[0]
        normed = model.vision.norm._module(last[0])
        assert torch.equal(tower[0], normed) and not torch.equal(tower, last)
        assert torch.equal(received, merged.flatten(1))
        assert received.shape == (tower.shape[1] // 4, model.hidden_size)
        assert torch.equal(projected, features)

    def test_the_block_mlp_is_intermediate_size_wide(self, model):
        config = model.vision.tower_config
        mlp = model.vision.layers[0].mlp
        assert model.vision.intermediate_size == config.intermediate_size != config.out_hidden_size
        assert mlp.intermediate_size == mlp.gate_proj._module.out_features == config.intermediate_size
