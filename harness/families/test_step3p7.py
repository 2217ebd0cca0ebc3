"""Step3p7 over Step-3.5's text model, end to end: a ViT with a 2-D rotary and layer-scaled blocks, two stride-2
convolutions after them, a linear projector, the scatter in the model; a head-gated attention, a sliding-window
dense block and a sigmoid mixture whose own-loop experts are scaled before the shared expert is added.

transformers has the wrapper's image processor only as a torchvision class, so the
processor is built with `Step3p7ImageProcessorPil`, the entry's PIL and NumPy one.
"""

import numpy as np
import torch

from nnterp_harness.mixture import MixtureChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.scaled_routing import ScaledRoutingChecks
from nnterp_harness.sliding import LONG_PROMPT
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, moved, rows, run
from nnterp_harness.vision import VisionSuite, image, prompt_for

skip_unless_known("step3p7")
FAMILY = family("step3p5")

from nnterp_harness.entries.step3p7 import CROP, IMAGE_TOKENS, SIDE, step3p7_processor  # noqa: E402 - after the skip

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = step3p7_processor()


class TestStep3p7Vision(VisionSuite):
    CHECKPOINT = "step3p7"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.StepVision, FAMILY.VisionLayer, FAMILY.StepVisionAttention, FAMILY.StepVisionMlp)
    IMAGE_SIDE = SIDE
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_image_processor_gives_the_normalized_global_view(self, model):
        picture = image(0, SIDE)
        out = PROCESSOR.image_processor([picture], return_tensors="pt")
        mean = torch.tensor(PROCESSOR.image_processor.image_mean).view(3, 1, 1)
        std = torch.tensor(PROCESSOR.image_processor.image_std).view(3, 1, 1)
        pixels = torch.from_numpy(np.array(picture)).permute(2, 0, 1).float() / 255
        assert out["pixel_values"].shape == (1, 3, SIDE, SIDE)
        assert torch.allclose(out["pixel_values"][0], (pixels - mean) / std, atol=1e-5)
        assert out["num_local_patches"].tolist() == [0] and "pixel_values_local" not in out

    def test_the_projector_takes_the_downsampled_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, projected, features))
        last, tower, received, projected, features = box[0]
        width = model.vision.vision_hidden_size
        assert torch.equal(tower, last)
        # Two stride-2 convolutions: 4x fewer rows by side, 4x the width.
        assert received.shape == (1, IMAGE_TOKENS, 4 * width)
        assert tower.shape[1] == IMAGE_TOKENS * 16
        assert torch.equal(projected.reshape(features.shape), features)

    def test_an_edit_of_tower_output_reaches_the_projector(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.tower_output[:] = 0
            box.append(model.projector.input.save())
        received = box[0]
        # A zeroed stream leaves the downsampling convolutions their biases and their zero padding to work on.
        tower = model.vision._module
        side = SIDE // model.vision.patch_size
        with torch.no_grad():
            grid = tower.downsampler2(tower.downsampler1(torch.zeros(1, model.vision.vision_hidden_size, side, side)))
        assert torch.equal(received, grid.flatten(2).transpose(1, 2))
        assert moved(received, self.clean_received(model))

    def clean_received(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.projector.input.save())
        return box[0]

    def test_a_wide_image_is_local_crops_then_the_global_view(self, model):
        wide = image(0, 2 * SIDE).resize((2 * SIDE, SIDE))
        one = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=[wide]):
            inputs = model.inputs.save()
            mask = model.vision.image_token_mask.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            first = model.layers[0].layer_input.save()
            box.append((inputs, mask, projected, features, first))
        inputs, mask, projected, features, first = box[0]
        batch = inputs[1]
        # A 64x32 image: a 4x2 grid of 16-pixel crops, one image token each, then the 2x2 tokens of the global view.
        crops = (2 * SIDE // CROP) * (SIDE // CROP)
        assert batch["num_local_patches"].tolist() == [crops]
        assert batch["pixel_values_local"].shape == (crops, 3, CROP, CROP)
        newline = PROCESSOR.tokenizer.convert_tokens_to_ids("<patch_newline>")
        assert int((batch["input_ids"] == newline).sum()) == SIDE // CROP - 1
        assert features.shape[0] == crops + IMAGE_TOKENS == int(mask.sum())
        assert int(one["mask"].sum()) == IMAGE_TOKENS
        # The first tower run is the global view, whose projected rows come last.
        assert torch.equal(projected.reshape(-1, features.shape[-1]), features[crops:])
        assert torch.equal(first[mask], features)


class TestStep3p7Text(MixtureChecks, ScaledRoutingChecks, FamilySuite):
    CHECKPOINT = "step3p7"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, "mlp.expert_outputs": "their own loop"}
    MOE_UNAVAILABLE = {"expert_outputs": "their own loop"}
    PREMIX_IS_HEAD_OUTPUTS = False
    SCALE_KEY = "moe_router_scaling_factor"
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def available(self, model, key):
        # The dense block's MLP has no mixture value and says so, as `test_support_is_what_this_family_expects`
        # lets it; the expected reason holds on the mixture block.
        expected = self.EXPECTED_UNAVAILABLE.get(key)
        if expected is None:
            return True
        entry = model.support().get(key)
        assert entry is not None, f"{key} is in EXPECTED_UNAVAILABLE, but support() reports it available"
        for index, reason in entry.items() if isinstance(entry, dict) else [(None, entry)]:
            if index is not None and key.startswith("mlp.") and not isinstance(model.layers[index].mlp, FAMILY.Moe):
                assert "has no" in reason, f"{key} on dense block {index}: {reason!r}"
                continue
            assert expected in reason, f"{key}: expected a reason containing {expected!r}, got {reason!r}"
        return False

    def test_sliding_blocks_attend_within_the_window(self, model):
        # `SlidingWindowChecks` reads the root config; the wrapper holds the window on its text config.
        config = model.config.get_text_config()
        count = len(model.layers)
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", list(range(count)), LONG_PROMPT)
        for index, pattern in enumerate(patterns):
            n = pattern.shape[-1]
            assert n > config.sliding_window, "the long prompt does not outrun the window"
            far = torch.ones(n, n, dtype=torch.bool).tril(-config.sliding_window)
            outside = pattern.detach()[..., far]
            if config.layer_types[index] == "sliding_attention":
                assert float(outside.abs().max()) == 0.0, f"block {index} attends past its window"
            else:
                assert float(outside.abs().min()) > 0.0, f"full-attention block {index} is windowed"

    def test_routed_output_is_the_experts_sum_times_the_factor(self, model):
        # The experts loop in their own forward, so there are no slots to sum; the scale is checked on the sum.
        index, _ = self.mixture(model)
        factor = getattr(model.config.get_text_config(), self.SCALE_KEY)
        assert factor != 1.0, "the checkpoint's factor is one, so a missing scale would pass"

        def body(m):
            mixture = m.layers[index].mlp
            return mixture.shared_expert_output, mixture.experts.output, mixture.routed_output, mixture.mlp_output

        shared, experts, routed, out = run(model, body)
        assert torch.equal(routed[0], experts * factor)
        assert torch.equal(routed + shared, out)

    def test_mlp_layer_types_decide_the_mixture_blocks(self, model):
        kinds = [isinstance(block.mlp, FAMILY.Moe) for block in model.layers]
        config = model.config.get_text_config()
        assert kinds == [kind == "sparse" for kind in config.mlp_layer_types] == [False, True]

    def test_weights_are_the_renormalized_sigmoid_scores_chosen_with_the_bias(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float())
        bias = model.layers[1].mlp.gate._module.e_score_correction_bias
        assert bool(bias.abs().max() > 0)
        chosen = (scores + bias).topk(2, dim=-1).indices
        assert torch.equal(indices.sort(-1).values, chosen.sort(-1).values)
        picked = scores.gather(-1, indices)
        assert torch.allclose(weights, picked / picked.sum(-1, keepdim=True), atol=1e-6)

    def test_the_gate_scales_each_head_before_the_output_projection(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.g_proj.output, attn.attention_head_outputs, attn.attention_premix

        gate, heads, premix = run(model, body)
        expected = heads * torch.sigmoid(gate).unsqueeze(-1)
        assert torch.allclose(premix, expected, atol=1e-6)
