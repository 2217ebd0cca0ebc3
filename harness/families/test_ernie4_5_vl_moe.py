"""ERNIE 4.5 VL, end to end: a packed Qwen-like ViT with per-image attention and a final norm, a resampler as
projector, on a text model whose mixture routes text tokens to text experts and vision tokens to vision experts."""

import torch

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE, QwenVision
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import moved, scale_of
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("ernie4_5_vl_moe")
FAMILY = family("ernie4_5_vl_moe")
#: The mixture split by modality, a class of the text family.
MOE = family("ernie4_5_vl_moe_text").Moe
#: Built from the checkpoint's parts: without torchvision there is no video processor, so the video slot stays empty.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("ernie4_5_vl_moe", "Ernie4_5_VLMoeProcessor")}
#: The mixture values the modality split leaves without a tensor over every token.
SPLIT = ("router_logits", "expert_weights", "expert_indices", "expert_outputs", "routed_output")


def mixture_block(model) -> int:
    return next(i for i, layer in enumerate(model.layers) if isinstance(layer.mlp, MOE))


class TestErnie4_5VLMoeVision(VisionSuite):
    CHECKPOINT = "ernie4_5_vl_moe"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def vision_positions(self, model, prompt, images):
        """The processor's modality mask, `True` where a token goes to the vision experts, and the input ids."""
        encoded = model.processor(text=prompt, images=images, return_tensors="pt")
        return encoded["moe_mm_token_type_ids"][0].bool(), encoded["input_ids"][0]

    def test_the_vision_tokens_are_the_image_tokens_and_their_bounds(self, model):
        prompt, images = prompt_for(model), self.images(0)
        vision, ids = self.vision_positions(model, prompt, images)
        config = model.config
        bounds = {config.image_token_id, config.image_start_token_id, config.image_end_token_id}
        assert torch.equal(vision, torch.tensor([int(i) in bounds for i in ids]))
        images = int((ids == config.image_token_id).sum())
        assert images >= 1 and int(vision.sum()) == images + 2

    def test_an_image_token_goes_to_the_vision_router_and_a_text_token_to_the_text_router(self, model):
        index = mixture_block(model)
        prompt, images = prompt_for(model), self.images(0)
        vision, _ = self.vision_positions(model, prompt, images)
        box = []
        with model.trace(prompt, images=images):
            mixture = model.layers[index].mlp
            entering = mixture.input.save()
            text_rows = mixture.text_moe.gate.input.save()
            vision_rows = mixture.vision_moe.gate.input.save()
            box.append((entering, text_rows, vision_rows))
        entering, text_rows, vision_rows = box[0]
        assert torch.equal(text_rows, entering[0][~vision])
        assert torch.equal(vision_rows, entering[0][vision])

    def test_the_vision_experts_write_only_the_vision_tokens(self, model):
        index = mixture_block(model)
        prompt, images = prompt_for(model), self.images(0)
        vision, _ = self.vision_positions(model, prompt, images)

        def output(ablate: str | None):
            box = []
            with model.trace(prompt, images=images):
                mixture = model.layers[index].mlp
                if ablate is not None:
                    experts = getattr(mixture, ablate).experts
                    experts.output = torch.zeros_like(experts.output)
                box.append(mixture.mlp_output.save())
            return box[0][0]

        clean, no_vision, no_text = output(None), output("vision_moe"), output("text_moe")
        assert torch.equal(no_vision[~vision], clean[~vision]) and moved(no_vision[vision], clean[vision])
        assert torch.equal(no_text[vision], clean[vision]) and moved(no_text[~vision], clean[~vision])

    def test_the_shared_experts_run_on_every_token(self, model):
        index = mixture_block(model)
        prompt, images = prompt_for(model), self.images(0)
        box = []
        with model.trace(prompt, images=images):
            mixture = model.layers[index].mlp
            shared = mixture.shared_expert_output.save()
            total = mixture.mlp_output.save()
            box.append((shared, total))
        with model.trace(prompt, images=images):
            mixture = model.layers[index].mlp
            mixture.shared_expert_output = torch.zeros_like(mixture.shared_expert_output)
            box.append(mixture.mlp_output.save())
        (shared, total), without = box
        assert shared.shape == total.shape
        assert torch.allclose(without, total - shared, atol=1e-5 * scale_of(total))
