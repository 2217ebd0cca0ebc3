"""CPM-Ant (`cpmant`), end to end: pre-norm wrappers that add inside, a prepended prompt segment, bidirectional."""

import torch

from nnterp_harness.release import family
from nnterp_harness.resend import ResendChecks
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("cpmant")


class TestCpmAnt(FamilySuite):
    CHECKS = (ResendChecks,)
    CHECKPOINT = "cpmant"
    FAMILY = FAMILY
    NATIVE = rows(
        "cpmant",
        "encoder.layers",
        "input_embedding",
        "encoder.output_layernorm",
        attn="self_att",
        ln1="self_att.layernorm_before_attention",
        ln2="ffn.layernorm_before_ffn",
        mlp="ffn",
    )
    # The wrappers norm inside: the attention and the MLP, as the block calls them, read the stream itself.
    ATTENTION_NORM = None
    MLP_NORM = None
    MLP_WIDTH_KEY = "dim_ff"
    CAUSAL = False
    KEY_PREFIX = 3

    def appended_id(self, model):
        return None

    def native(self, value):
        # A full run's stream holds the prompt positions first; the values hold the user's positions.
        return value[:, self.KEY_PREFIX :] if value.shape[1] > self.KEY_PREFIX else value

    def test_values_hold_the_users_positions(self, model, clean):
        n = self.n_tokens(clean)

        def body(m):
            block = m.layers[0]
            return block.output[0], block.layer_output

        raw, value = run(model, body)
        assert raw.shape[1] == n + self.KEY_PREFIX == model.config.prompt_length + n
        assert torch.equal(value, raw[:, self.KEY_PREFIX :]), "layer_output is not the block output past the prompt"

    def test_a_written_stream_keeps_the_prompt_positions(self, model):
        def body(m):
            before = m.layers[0].output[0].clone()
            written = m.layers[0].layer_output * 2
            m.layers[0].layer_output = written
            return before, written, m.layers[1].input

        before, written, received = run(model, body)
        prompt = self.KEY_PREFIX
        assert torch.equal(received[:, :prompt], before[:, :prompt]), "the write moved the prompt positions"
        assert torch.equal(received[:, prompt:], written), "the next block did not receive the written positions"

    def test_the_pattern_weighs_the_prompt_keys(self, model):
        pattern = run(model, lambda m: m.layers[0].self_attn.attention_probabilities)
        assert float(pattern[..., : self.KEY_PREFIX].sum(-1).min()) > 0, "a position gives the prompt keys no weight"
