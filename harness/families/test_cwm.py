"""CWM, end to end: sliding-window and full-attention blocks."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("cwm")
LONG_PROMPT = "The Eiffel Tower is in Paris, and the Colosseum is in Rome."


class TestCwm(FamilySuite):
    CHECKPOINT = "cwm"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_sliding_blocks_attend_within_the_window(self, model):
        config = model.config
        count = len(model.layers)
        kinds = getattr(config, "layer_types", None) or ["sliding_attention"] * count
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", list(range(count)), LONG_PROMPT)
        for index, pattern in enumerate(patterns):
            n = pattern.shape[-1]
            assert n > config.sliding_window, "the long prompt does not outrun the window"
            far = torch.ones(n, n, dtype=torch.bool).tril(-config.sliding_window)
            outside = pattern.detach()[..., far]
            if kinds[index] == "sliding_attention":
                assert float(outside.abs().max()) == 0.0, f"block {index} attends past its window"
            else:
                assert float(outside.abs().min()) > 0.0, f"full-attention block {index} is windowed"
