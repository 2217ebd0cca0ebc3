"""Inkling 2 Loop over its text model, end to end: Inkling 2's packed, layer-scaled ViT and merger before a looped
text model whose second group of blocks runs twice.

The wrapper's image processor exists only as a torchvision class, so the processor is
built with `Inkling2Images`, its NumPy stand-in, in its place.
"""

import torch

from nnterp.components import VisionLayer
from nnterp.components.inkling2_vision import Inkling2LayerScaledAttention, Inkling2LayerScaledMlp, Inkling2Vision
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.attention_residuals import AttentionResidualChecks
from nnterp_harness.looped import runs
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, rows, run
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("inkling2_loop")
FAMILY = family("inkling2_loop")

from nnterp_harness.entries.inkling2 import (  # noqa: E402 - after the skip
    LayerScaledTowerChecks,
    WrappedResidualChecks,
    wrapper_processor,
)

PROCESSOR = wrapper_processor("inkling2_loop")


class TestInkling2LoopVision(VisionSuite):
    CHECKS = (LayerScaledTowerChecks,)
    CHECKPOINT = "inkling2_loop"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    TOWER_ENVOYS = (Inkling2Vision, VisionLayer, Inkling2LayerScaledAttention, Inkling2LayerScaledMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False

    def test_both_passes_of_the_loop_start_from_the_imaged_stream(self, model):
        box = []
        for seed in (0, 1):
            with model.trace(prompt_for(model), images=self.images(seed)) as tracer:
                before = model.layers[1].layer_output.save()
                passes = [model.layers[2].inputs[0][0].save() for _ in tracer.iter[0:2]]
                box.append((before, passes))
        (before, passes), (other, _) = box
        assert len(passes) == 2 and all(torch.equal(stream, before) for stream in passes)
        assert not torch.equal(before, other), "the stream entering the loop does not carry the image"


class TestInkling2LoopText(FamilySuite):
    CHECKS = (WrappedResidualChecks, AttentionResidualChecks)
    CHECKPOINT = "inkling2_loop"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def test_the_checkpoint_loops_one_group(self, model):
        assert [block.opens_group() for block in model.layers] == [True, False, True, False]
        assert [block.runs() for block in model.layers] == [1, 1, 2, 2]

    def test_skip_layers_hands_the_stream_straight_through(self, model, clean):
        # skip_layers acts on the looped blocks' first pass; the second pass runs again from the stream it hands on.
        last = len(model.layers) - 1

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, m.logits

        before, after, logits = run(model, body)
        assert torch.equal(before, after), "the last block's first pass is not block 0's output"
        assert not torch.equal(logits, clean["logits"]), "skipping the blocks left the logits as they were"

    def test_the_final_mix_reads_the_loops_last_pass(self, model):
        outputs = runs(model, lambda m: m.layers[3].layer_output, 2)
        final = run(model, lambda m: m.model.language_model.final_input.inputs)
        assert not torch.equal(outputs[0], outputs[1]), "the two passes of the looped block agree"
        assert torch.equal(final[0][1], outputs[1]), "the final mix does not read the loop's last pass"
