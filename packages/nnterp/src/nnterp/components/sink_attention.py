"""Softmax attention with a sink logit per head that joins the softmax and leaves before the values are mixed."""

from __future__ import annotations

from .attention import INTERFACE, Attention, Pattern, interface_reason
from .eproperty import EProperty


class SinkAttention(Attention):
    """An attention whose eager forward joins a sink column to the masked scores and drops it after the softmax.

    The rows of `attention_probabilities` then sum to less than one. `attention_scores`
    are the masked scores bound before the column joins (`attn_weights_1`, the
    binding after the mask add).
    """

    SINK = True

    @EProperty(
        f"source.{INTERFACE}.source.attn_weights_1.output",
        description="The attention scores, masked, before the sink column joins them",
        unavailable=interface_reason,
    )
    def attention_scores(self, value) -> Pattern:
        return value
