"""PP-Chart2Table, end to end: GOT-OCR2's model class on a Qwen2 text model, under its own config type and processor.

Both tasks build `GotOcr2ForConditionalGeneration`, served as GOT-OCR2 is: its text
model by `qwen2`, the SAM tower a plain envoy with no vision value (its windowed blocks
run on a `[images, rows, columns, width]` grid that no family keys yet). The processor
expands no placeholder: the chat template spells each image's tokens, and the processor
refuses text without an image, so the family contract runs on the default-task load, the
same class with no processor.
"""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.components import DerivedEProperty, block_values
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, moved, rows, run
from nnterp_harness.vision import QUESTION, assert_default_task_loads_agree, image, prompt_for

skip_unless_known("pp_chart2table")
FAMILY = family("pp_chart2table")


class TestPPChart2TableWrapper:
    @pytest.fixture(scope="class")
    @classmethod
    def model(cls):
        path = locate.checkpoint_path("pp_chart2table")
        return StandardizedTransformer(str(path), task="image-text-to-text", dispatch=True, attn_implementation="eager")

    def test_the_wrapper_takes_an_image(self, model):
        assert model.family is FAMILY
        assert type(model._module).__name__ == "GotOcr2ForConditionalGeneration"
        assert type(model.processor).__name__ == "PPChart2TableProcessor"
        box = []
        for seed in (0, 1):
            with model.trace(prompt_for(model), images=[image(seed)]):
                box.append(model.logits.save())
        assert moved(box[0], box[1]), "two images give the same logits"

    def test_the_chat_template_spells_the_image_tokens(self, model):
        image_id = model.config.image_token_id
        templated = model.processor(images=[image(0)], text=prompt_for(model), return_tensors="pt")["input_ids"]
        assert int((templated == image_id).sum()) == model.config.image_seq_length > 1
        bare = model.processor(images=[image(0)], text="<imgpad>" + QUESTION, return_tensors="pt")["input_ids"]
        assert int((bare == image_id).sum()) == 1, "the processor expanded the placeholder"

    def test_no_vision_value_is_served(self, model):
        assert type(model.vision).__name__ == "Plain"
        assert "projector" in model._aliases
        assert not [name for name in model.support() if name.startswith("vision")]

    def test_the_processor_refuses_text_alone(self, model):
        with pytest.raises(ValueError, match="Both `images` and `text`"):
            model.processor(text=QUESTION, return_tensors="pt")


class TestPPChart2TableDefaultTask(FamilySuite):
    """The default-task load: the same class with no processor, the whole family contract on its text stack."""

    CHECKPOINT = "pp_chart2table"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")

    def test_order_holds_on_every_load(self, model, checkpoint):
        """`order()` and `rank()` agree on a fresh dispatched load and a model that has traced.

        `AutoModelForCausalLM` maps no PP-Chart2Table class; the lazy load builds the
        checkpoint's architecture as the dispatched one falls back to it
        (`test_the_lazy_and_the_dispatched_default_task_loads_agree`).
        """
        fresh = StandardizedTransformer(str(checkpoint), dispatch=True, attn_implementation="eager")
        run(model, lambda m: m.logits)
        model._order_cache.clear()
        for index, block in enumerate(model.layers):
            served = {
                name
                for name, host, attr in block_values(block)
                if attr.reason(host) is None and not isinstance(attr, DerivedEProperty)
            }
            assert set(model.order(index)) == served, f"block {index}: {sorted(served ^ set(model.order(index)))}"
            assert fresh.order(index) == model.order(index), f"block {index}: the fresh load orders differently"
            for name in served:
                assert fresh.rank(name, index) == model.rank(name, index), name

    def test_the_lazy_and_the_dispatched_default_task_loads_agree(self, checkpoint):
        assert_default_task_loads_agree(checkpoint)

    def test_a_wrapper_load_cannot_order_its_blocks(self, checkpoint):
        # The tower is a plain envoy, so the probe carries no image, and the processor refuses text alone.
        wrapper = StandardizedTransformer(str(checkpoint), task="image-text-to-text", attn_implementation="eager")
        with pytest.raises(ValueError, match="Both `images` and `text`"):
            wrapper.order(0)

    def test_the_default_task_builds_the_wrapper_with_no_processor(self, model):
        assert type(model._module).__name__ == "GotOcr2ForConditionalGeneration"
        assert model.processor is None
        assert isinstance(model._module.model.vision_tower, torch.nn.Module)
        assert not [name for name in model.support() if name.startswith("vision")]
