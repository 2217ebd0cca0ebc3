"""`SlidingWindowChecks`: the contract of a family whose blocks attend over a sliding window.

Mix it into a family's `FamilySuite` class. On a prompt longer than
`config.sliding_window`, a block whose `layer_types` entry is `sliding_attention`
(every block, where the config has no `layer_types`) puts no weight past its
window, and a full-attention block puts weight on every earlier key.
"""

from __future__ import annotations

import torch

#: A prompt longer than every tiny checkpoint's window.
LONG_PROMPT = "The Eiffel Tower is in Paris, and the Colosseum is in Rome."


class SlidingWindowChecks:
    """Checks for the sliding-window blocks; the class it is mixed into is a `FamilySuite`."""

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
