"""GPT-Neo, end to end: an own-arithmetic attention, global and local blocks, a tuple-returning block."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, rows

FAMILY = family("gpt_neo")


class TestGPTNeo(FamilySuite):
    CHECKPOINT = "gpt_neo"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "wte", "ln_f", attn="attn", ln1="ln_1", ln2="ln_2")

    def test_the_blocks_alternate_global_and_local(self, model):
        assert [block.self_attn.attention_type for block in model.layers] == ["global", "local"]

    def test_a_local_block_masks_keys_beyond_its_window(self, model):
        window = model.config.window_size
        found = []
        with model.trace(PROMPT):
            for block in model.layers:
                found.append(block.self_attn.attention_probabilities.save())
        global_pattern, local_pattern = found
        seq = local_pattern.shape[-1]
        assert seq > window
        far = torch.ones(seq, seq, dtype=torch.bool).tril(-window)
        assert bool((local_pattern[..., far] == 0).all())
        assert bool((global_pattern[..., far] > 0).all())

    def test_the_scores_are_not_scaled(self, model):
        found = []
        with model.trace(PROMPT):
            attention = model.layers[0].self_attn
            found.append(attention.attention_queries.save())
            found.append(attention.attention_keys.save())
            found.append(attention.attention_scores.save())
        queries, keys, scores = found
        causal = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
        assert torch.allclose((queries @ keys.transpose(-1, -2))[..., causal], scores[..., causal])
