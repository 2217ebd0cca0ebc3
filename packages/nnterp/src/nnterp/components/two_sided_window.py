"""`TwoSidedWindowAttention`: a bidirectional encoder's sliding window, which reaches both ways from the query.

A decoder's window looks back only (`Attention.attention_window`: the query and the
keys before it). On an encoder's `sliding_attention` block (ModernBERT, UltraBERT) a
query at position `q` weighs the keys `q - config.sliding_window` to
`q + config.sliding_window`, so it sees `2 * config.sliding_window + 1` keys.
"""

from __future__ import annotations

from .attention import Attention, config_value, module_config


class TwoSidedWindowAttention(Attention):
    """An encoder's attention whose window, on a `sliding_attention` block, reaches both ways from the query."""

    @property
    def attention_window(self) -> int | None:
        """How many keys each query of this block sees, itself included, or `None` where it sees every key.

        On a `sliding_attention` block a query at position `q` weighs the keys
        `q - config.sliding_window` to `q + config.sliding_window`, so it sees
        `2 * config.sliding_window + 1` keys.
        """
        config = module_config(self)
        kinds = config_value(config, "layer_types")
        index = getattr(self._module, "layer_idx", None)
        if kinds[index] != "sliding_attention":
            return None
        return 2 * config.sliding_window + 1
