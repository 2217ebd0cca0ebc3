"""ShieldGemma 2, end to end: Gemma 3's wrapper, served by `shieldgemma2` with Gemma 3's keys.

The image-text-to-text task builds `Gemma3ForConditionalGeneration` from a ShieldGemma 2
checkpoint; its processor writes one prompt per image and policy from its chat template
and refuses a text-only call, so the text suite loads the same task with Gemma 3's
processor over the checkpoint's own parts, which takes text alone. (The default task's
loads build the same class, lazily or dispatched, with no processor: `AutoModelForCausalLM`
has no ShieldGemma 2 class, so the checkpoint's architecture stands in.)
"""

import torch

from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("shieldgemma2")
FAMILY = family("shieldgemma2")


def gemma3_processor():
    """Gemma 3's processor over the checkpoint's tokenizer, image size, image tokens per image and template."""
    import json

    from transformers import AutoTokenizer, Gemma3Processor
    from transformers.models.gemma3.image_processing_pil_gemma3 import Gemma3ImageProcessorPil

    path = locate.checkpoint_path("shieldgemma2")
    settings = json.loads((path / "processor_config.json").read_text(encoding="utf-8"))
    return Gemma3Processor(
        image_processor=Gemma3ImageProcessorPil(size=settings["image_processor"]["size"]),
        tokenizer=AutoTokenizer.from_pretrained(path),
        chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        image_seq_length=settings["image_seq_length"],
    )


class TestShieldGemma2Vision(VisionSuite):
    CHECKPOINT = "shieldgemma2"
    FAMILY = FAMILY

    def test_the_task_builds_gemma3s_wrapper(self, model):
        assert type(model._module).__name__ == "Gemma3ForConditionalGeneration"
        assert type(model.processor).__name__ == "ShieldGemma2Processor"

    def test_the_projector_pools_the_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            features = model.vision.image_features.save()
            box.append((tower, received, features))
        tower, received, features = box[0]
        assert torch.equal(received, tower)
        assert features.shape[0] == model.config.mm_tokens_per_image < tower.shape[1]


class TestShieldGemma2Text(FamilySuite):
    CHECKPOINT = "shieldgemma2"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    MLP_NORM = "pre_feedforward_layernorm"
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": gemma3_processor()}
