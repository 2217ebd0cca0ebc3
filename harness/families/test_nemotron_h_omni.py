"""Nemotron-H Omni over Nemotron-H, end to end: RADIO's layer-scaled packed tower, a pixel shuffle, the scatter in the root.

The wrapper's image processor exists only as a torchvision class, so the processor
is built with `RadioImages`, its PIL and NumPy stand-in, in its place.
"""

import torch

from nnterp.components import VisionLayer
from nnterp.components.vision import PER_IMAGE, scatter_host
from nnterp_harness.recurrent import CHUNKED_STATES
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("nemotron_h_omni")
FAMILY = family("nemotron_h_omni")

from nnterp_harness.entries.nemotron_h_omni import omni_processor  # noqa: E402 - after the skip

PROCESSOR = omni_processor()


class TestNemotronHOmniVision(VisionSuite):
    CHECKPOINT = "nemotron_h_omni"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    TOWER_ENVOYS = (FAMILY.RadioVision, VisionLayer, FAMILY.RadioVisionAttention, FAMILY.RadioVisionMlp)
    PATTERN_REASON = PER_IMAGE
    IMAGE_SIZE_FIXED = False

    def test_the_root_scatters(self, model):
        assert scatter_host(model) == ("", model)

    def test_the_contributions_are_layer_scaled(self, model):
        block = model.vision.layers[0]
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            raw_attn = block.self_attn.output[0].save()
            attn = block.self_attn.attention_output.save()
            raw_mlp = block.mlp.output.save()
            mlp = block.mlp.mlp_output.save()
            box.append((raw_attn, attn, raw_mlp, mlp))
        raw_attn, attn, raw_mlp, mlp = box[0]
        assert torch.equal(attn, block._module.layer_scale1.lambda1 * raw_attn)
        assert torch.equal(mlp, block._module.layer_scale2.lambda1 * raw_mlp)

    def test_the_projector_takes_the_shuffled_patches_without_the_prefix(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, patches, received, projected, features))
        tower, patches, received, projected, features = box[0]
        prefix = model.vision.tower_config.num_cls_tokens + model.vision.tower_config.num_registers
        factor = int(1 / model.config.downsample_ratio)
        assert tower.shape[1] == patches.shape[1] + prefix
        assert received.shape[-2:] == (patches.shape[1] // factor**2, tower.shape[-1] * factor**2)
        assert torch.equal(projected.reshape(features.shape), features)

    def test_queries_keys_and_values_read_with_two_images(self, model):
        attn = model.vision.layers[0].self_attn
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append((attn.attention_queries.save(), attn.attention_keys.save(), attn.attention_values.save()))
        for value in box[0]:
            assert value.shape[:2] == (1, attn.num_heads) and value.shape[-1] == attn.head_dim


class TestNemotronHOmniText(FamilySuite):
    CHECKPOINT = "nemotron_h_omni"
    FAMILY = FAMILY
    NATIVE = rows(
        "language_model.model",
        "layers",
        "embeddings",
        "norm_f",
        attn=None,
        mlp=None,
        ln1=None,
        ln2=None,
        head="language_model.lm_head",
    )
    EXPECTED_UNAVAILABLE = {**CHUNKED_STATES, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    PLAIN_UP_PROJ = True
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
