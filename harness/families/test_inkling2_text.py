"""Inkling 2 (`Inkling2ForCausalLM`), end to end: block attention residuals over groups of two blocks, a sliding
block opening the first group, a full block inside it, a sliding block opening the next; every block a mixture.

The suite's statements about the stream take their attention-residual form
(`nnterp_harness.attention_residuals`): a block that opens a group restarts its stream from the attention's
contribution, `layer_mid` is read-only, and the logit lens equals the logits on the final mix of the group states.
"""

import torch

from nnterp_harness.attention_residuals import AttentionResidualChecks
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("inkling2_text")


class TestInkling2Text(FamilySuite):
    CHECKS = (AttentionResidualChecks,)
    CHECKPOINT = "inkling2_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def test_groups_are_the_checkpoints(self, model):
        assert [block.opens_group() for block in model.layers] == [True, False, True]
        kinds = [type(block.self_attn._module).__name__ for block in model.layers]
        assert kinds == ["Inkling2SlidingAttention", "Inkling2FullAttention", "Inkling2SlidingAttention"]

    def test_a_group_files_the_input_of_its_first_block(self, model):
        def body(m):
            return [m.layers[i].layer_input for i in range(3)], m.layers[2].inputs[0][1], m.model.final_input.inputs

        inputs, states, (final_args, _) = run(model, body)
        # Block 2 sees the embedding (block 0's input); the final mix sees it and block 2's input, then the stream.
        assert torch.equal(states, inputs[0].unsqueeze(-2))
        assert torch.equal(final_args[0], torch.stack([inputs[0], inputs[2]], dim=-2))

    def test_vocab_size_is_the_heads_width(self, model):
        # The checkpoint pads its vocabulary: the embedding holds 1,024 rows, the head 1,000.
        embedding = model.embed_tokens._module.weight.shape[0]
        assert model.vocab_size == model.config.unpadded_vocab_size == 1000 < embedding
        logits, probs = run(model, lambda m: (m.logits, m.next_token_probs))
        assert logits.shape[-1] == probs.shape[-1] == model.vocab_size
