"""PaliGemma over Gemma, end to end: a SigLIP tower, a linear projector, a prompt attended both ways."""

import torch

from nnterp import StandardizedTransformer
from nnterp.components import DerivedEProperty, block_values
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, run
from nnterp_harness.vision import VisionSuite, assert_default_task_loads_agree, prompt_for

skip_unless_known("paligemma")
FAMILY = family("paligemma")


class TestPaliGemmaVision(VisionSuite):
    CHECKPOINT = "paligemma"
    FAMILY = FAMILY

    def test_the_projector_reads_the_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        assert torch.equal(received, tower)
        assert torch.equal(projected.reshape(features.shape), features)

    def test_the_prompt_attends_both_ways(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.layers[0].self_attn.attention_probabilities.save())
        pattern = box[0].detach()
        n = pattern.shape[-1]
        above = torch.ones(n, n, dtype=torch.bool).triu(1)
        # The image tokens attend to the text after them: the prompt is one bidirectional prefix.
        assert float(pattern[..., above].min()) > 0.0


class TestPaliGemmaText(FamilySuite):
    """The wrapper's text stack, loaded text-only: PaliGemma's processor refuses a prompt without an image."""

    CHECKPOINT = "paligemma"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")

    def test_order_holds_on_every_load(self, model, checkpoint):
        """`order()` and `rank()` agree on a fresh dispatched load and a model that has traced.

        The lazy text-only load builds the wrapper the dispatched one falls back to
        (`test_the_lazy_and_the_dispatched_text_only_loads_agree`). A load with the
        processor orders the same blocks through a probe that carries an image
        (`test_a_wrapper_load_orders_through_an_image_probe`).
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

    def test_the_lazy_and_the_dispatched_text_only_loads_agree(self, checkpoint):
        assert_default_task_loads_agree(checkpoint)

    def test_a_wrapper_load_orders_through_an_image_probe(self, model, checkpoint):
        # The processor refuses a prompt without an image, so the probe must carry one.
        wrapper = StandardizedTransformer(str(checkpoint), task="image-text-to-text", attn_implementation="eager")
        for index in range(len(model.layers)):
            assert wrapper.order(index) == model.order(index), f"block {index}"
