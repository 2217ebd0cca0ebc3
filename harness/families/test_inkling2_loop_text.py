"""Inkling 2 Loop (`Inkling2LoopForCausalLM`), end to end: Inkling 2's blocks in groups of two, the second group
looped twice; a sliding and a full block before the loop, a sliding and a full looped block, every block a mixture.

The stream statements take their attention-residual form (`nnterp_harness.attention_residuals`); a looped block's
values are its first pass, its second pass nnsight's next occurrence.
"""

import torch

from nnterp_harness.attention_residuals import AttentionResidualChecks
from nnterp_harness.looped import runs
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("inkling2_loop_text")


class TestInkling2LoopText(FamilySuite):
    CHECKS = (AttentionResidualChecks,)
    CHECKPOINT = "inkling2_loop_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def test_the_checkpoint_loops_one_group(self, model):
        assert [block.opens_group() for block in model.layers] == [True, False, True, False]
        assert [block.runs() for block in model.layers] == [1, 1, 2, 2]
        kinds = [type(block._module).__name__ for block in model.layers]
        assert kinds == [
            "Inkling2LoopSlidingDecoderLayer",
            "Inkling2LoopFullDecoderLayer",
            "Inkling2LoopSlidingLoopDecoderLayer",
            "Inkling2LoopFullLoopDecoderLayer",
        ]

    def test_a_later_pass_restarts_from_the_stream_before_the_loop(self, model):
        first, second = runs(model, lambda m: (m.layers[2].inputs, m.layers[3].layer_output), 2)
        (args0, kwargs0), out0 = first
        (args1, kwargs1), out1 = second
        before = run(model, lambda m: m.layers[1].layer_output)
        assert torch.equal(args0[0], before) and torch.equal(args1[0], before), "a pass does not start before the loop"
        assert torch.equal(args0[1], args1[1]), "the second pass does not start from the group states before the loop"
        assert len(args0) == 2 and kwargs0.get("messages") is None, "the first pass takes a message"
        assert args1[2].shape[-2] == 4, "the second pass does not take four messages"
        assert not torch.equal(out0, out1), "the two passes of the looped block agree"

    def test_reads_pinned_to_a_pass_are_that_pass(self, model):
        outputs = runs(model, lambda m: m.layers[3].layer_output, 2)
        assert torch.equal(outputs[0], run(model, lambda m: m.layers[3].layer_output)), "the unpinned read is pass 0"
        final = run(model, lambda m: m.model.final_input.inputs)
        assert torch.equal(final[0][1], outputs[1]), "the final mix does not read the loop's last pass"

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
