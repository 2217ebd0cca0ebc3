"""UltraBERT (`ultrabert`), end to end: a bidirectional Llama-style encoder with banded blocks, under its head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import LONG_PROMPT
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("ultrabert")


class TestUltrabert(FamilySuite):
    CHECKPOINT = "ultrabert"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", head="head")
    EXPECTED_UNAVAILABLE = {}
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_a_sliding_block_weighs_a_band_on_both_sides(self, model):
        # UltraBERT's band is symmetric: a query weighs the keys at most `sliding_window` positions away, either side.
        config = model.config
        kinds = config.layer_types
        blocks = list(range(len(model.layers)))
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", blocks, LONG_PROMPT)
        assert set(kinds) == {"full_attention", "sliding_attention"}
        for index, pattern in zip(blocks, patterns):
            n = pattern.shape[-1]
            assert n > 2 * config.sliding_window + 1, "the long prompt does not outrun the band"
            distance = (torch.arange(n)[:, None] - torch.arange(n)[None, :]).abs()
            band = distance <= config.sliding_window
            pattern = pattern.detach()
            window = model.layers[index].self_attn.attention_window
            if kinds[index] == "sliding_attention":
                assert window == 2 * config.sliding_window + 1, f"block {index}: attention_window {window}"
                assert float(pattern[..., ~band].abs().max()) == 0.0, f"block {index} weighs a key past its band"
                assert float(pattern[..., band].min()) > 0.0, f"block {index} leaves a key of its band unweighed"
            else:
                assert window is None, f"full-attention block {index}: attention_window {window}"
                assert float(pattern.min()) > 0.0, f"full-attention block {index} leaves a key unweighed"
