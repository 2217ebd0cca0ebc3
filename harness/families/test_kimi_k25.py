"""Kimi K2.5 over DeepSeek-V3, end to end: the packed MoonViT with per-image attention, a 2x2 patch merge, the
norm-and-MLP projector, the scatter in the model.

The text stack runs the text family's own suite (`test_deepseek_v3`), its mixture checks among it, on the
wrapper's text model. The wrapper's image processor exists only as a torchvision class, so the processor is
built with `KimiImages`, its PIL and NumPy stand-in, in its place.
"""

import torch

from nnterp.components import QwenVision, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import rows, run
from nnterp_harness.towers import PerImageHeadsChecks, QwenVisionSuite
from nnterp_harness.vision import prompt_for

skip_unless_known("kimi_k25")
FAMILY = family("kimi_k25")

import test_deepseek_v3 as text_suite  # noqa: E402  - the text family's suite, collected here on the wrapper

from nnterp_harness.entries.kimi_k25 import kimi_processor  # noqa: E402 - after the skip

PROCESSOR = kimi_processor()


class TestKimiK25Vision(QwenVisionSuite):
    CHECKS = (PerImageHeadsChecks,)
    CHECKPOINT = "kimi_k25"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, VisionLayer, FAMILY.MoonVisionAttention, VisionMlp)
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_projector_merges_2x2_groups_of_the_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        side = self.IMAGE_SIDE // model.vision.patch_size
        width = model.vision.vision_hidden_size
        # Each group holds one 2x2 block of the patch grid, its patches in row-major order.
        grid = tower[0].reshape(side // 2, 2, side // 2, 2, width).permute(0, 2, 1, 3, 4)
        assert torch.equal(received, grid.reshape(-1, 4, width))
        assert torch.equal(projected.reshape(features.shape), features)
        assert features.shape[0] * 4 == tower.shape[1]


class TestKimiK25Text(text_suite.TestDeepseekV3):
    CHECKPOINT = "kimi_k25"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

    # The two checks below read the text model's settings; the wrapper's config holds them as `text_config`.

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.get_text_config().routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

    def test_latent_attention_sizes(self, model):
        attn = model.layers[0].self_attn
        config = model.config.get_text_config()
        assert attn.qk_head_dim == config.qk_nope_head_dim + config.qk_rope_head_dim
        assert attn.head_dim == config.v_head_dim
        assert attn.num_kv_heads == attn.num_heads == config.num_attention_heads
