"""DiffLlama, end to end: a differential attention that calls the shared interface twice."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("diffllama")


class TestDiffLlama(FamilySuite):
    CHECKPOINT = "diffllama"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {"self_attn.attention_head_outputs": "differential attention"}

    def test_both_calls_compute_one_pattern(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.attention_probabilities, attn.source.attention_interface_2.output[1]

        first, second = run(model, body)
        assert torch.equal(first, second), "the two interface calls computed different patterns"

    def test_the_premix_is_the_differential_combination(self, model):
        attn = model.layers[0].self_attn
        half = attn.num_heads // 2

        def body(m):
            a = m.layers[0].self_attn
            return a.attention_values, a.attention_probabilities, a.attention_premix

        values, pattern, premix = run(model, body)
        module = attn._module
        groups = attn.num_heads // attn.num_kv_heads
        first, second = (v.repeat(1, 2, 1, 1).repeat_interleave(groups, 1) for v in values.chunk(2, dim=1))
        outputs = torch.cat([pattern @ first, pattern @ second], dim=-1).transpose(1, 2)
        lam = attn.differential_lambda
        assert lam != 0.0
        pairs = outputs[:, :, :half] - lam * outputs[:, :, half:]
        expected = (1 - module.lambda_init) * module.groupnorm(pairs)
        got = premix.flatten(-2).unflatten(-1, (half, -1))
        assert torch.allclose(got, expected, atol=1e-5), "attention_premix is not the normed head-pair difference"
