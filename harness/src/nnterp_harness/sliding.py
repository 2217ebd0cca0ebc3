"""`SlidingWindowChecks`: the contract of a family whose blocks attend over a sliding window.

A family's test class declares it in `CHECKS`. On a prompt longer than
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
        config = model.config.get_text_config()
        count = len(model.layers)
        kinds = getattr(config, "layer_types", None) or ["sliding_attention"] * count
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", list(range(count)), LONG_PROMPT)
        for index, pattern in enumerate(patterns):
            window = model.layers[index].self_attn.attention_window
            sliding = kinds[index] == "sliding_attention"
            assert window == (config.sliding_window if sliding else None), f"block {index}: attention_window {window}"
            n = pattern.shape[-1]
            assert n > config.sliding_window, "the long prompt does not outrun the window"
            # What `attention_window` states is what the pattern does: no weight on a key `window` or more back,
            # and weight on every earlier key where there is no window.
            far = torch.ones(n, n, dtype=torch.bool).tril(-(window or config.sliding_window))
            outside = pattern.detach()[..., far]
            if window is not None:
                assert float(outside.abs().max()) == 0.0, f"block {index} attends past its window"
                near = torch.ones(n, n, dtype=torch.bool).tril() & ~far
                assert float(pattern.detach()[..., near].abs().min()) > 0.0, f"block {index} sees less than its window"
            else:
                assert float(outside.abs().min()) > 0.0, f"full-attention block {index} is windowed"
