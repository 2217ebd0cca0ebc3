"""Softmax attention on vLLM: what enters and leaves the engine's attention layer, and the pattern recomputed.

A family's attention module calls vLLM's ``Attention`` layer (the child ``attn``)
with the step's queries, keys and values as ``[tokens, heads * head_dim]`` rows and
gets every head's output back the same way. Those four are served in the layouts of
the transformers engine. The scores and the pattern exist only inside the layer's
kernel: nnterp recomputes them from the step's queries and keys with the layer's own
scale, softcap, ALiBi slopes and sliding window, which holds on the prefill, where
the step has every key, and not on a decode step.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from nnterp.components import (
    DerivedEProperty,
    HeadOutputs,
    Keys,
    Pattern,
    Queries,
    Residual,
    Standard,
    Values,
    needs_child,
)

from .reasons import DECODE
from .values import Flat, step_reason

__all__ = ["DECODE", "Attention", "causal_scores", "on_decode_step"]


def _kernel(envoy: Any) -> Any:
    """The vLLM attention layer's module."""
    return envoy.attn._module


def on_decode_step(envoy: Any) -> str | None:
    """`DECODE` while `envoy`'s attention layer runs a decode step, else `None`: where the pattern is recomputable."""
    return step_reason(envoy, f"{envoy.attn.path}.input", DECODE)


def causal_scores(
    queries: torch.Tensor,
    keys: torch.Tensor,
    scale: float,
    softcap: float | None = None,
    window: int | None = None,
    slopes: torch.Tensor | None = None,
) -> torch.Tensor:
    """The masked scores of one prefill: ``[1, heads, tokens, tokens]`` from ``[1, heads|kv_heads, tokens, dim]``.

    Keys are repeated over the query heads of their group, masked entries hold the
    dtype's lowest value as the transformers engine's eager mask leaves them, and
    ALiBi adds ``slope * key_position`` (the form whose softmax equals the kernel's).
    """
    groups = queries.shape[1] // keys.shape[1]
    keys = keys.repeat_interleave(groups, dim=1)
    scores = torch.matmul(queries.float(), keys.float().transpose(-1, -2)) * scale
    if softcap:
        scores = softcap * torch.tanh(scores / softcap)
    tokens = queries.shape[2]
    position = torch.arange(tokens, device=scores.device)
    if slopes is not None:
        scores = scores + slopes.float().to(scores.device)[None, :, None, None] * position[None, None, None, :]
    distance = position[:, None] - position[None, :]
    masked = distance < 0
    if window:
        masked = masked | (distance >= window)
    return scores.masked_fill(masked, torch.finfo(scores.dtype).min).to(queries.dtype)


class Attention(Standard):
    """A block's attention, `model.layers[i].self_attn`, around vLLM's attention layer ``attn``.

    The sizes are read off the layer. `SLIDING_WINDOW` names a family whose window
    the layer does not hold; the layer's own is read otherwise.
    """

    # -- sizes ----------------------------------------------------------------

    @property
    def num_heads(self) -> int:
        """This block's query heads."""
        return _kernel(self).num_heads

    @property
    def num_kv_heads(self) -> int:
        """This block's key/value heads."""
        return _kernel(self).num_kv_heads

    @property
    def head_dim(self) -> int:
        """The width of one head's values and outputs."""
        kernel = _kernel(self)
        return getattr(kernel, "head_size_v", kernel.head_size)

    @property
    def qk_head_dim(self) -> int:
        """The width of one head's queries and keys."""
        return _kernel(self).head_size

    # -- the kernel's settings -------------------------------------------------------

    def scale(self) -> float:
        """The factor the kernel multiplies the scores by."""
        kernel = _kernel(self)
        scale = getattr(kernel.impl, "scale", None)
        return float(scale) if scale is not None else 1 / math.sqrt(self.qk_head_dim)

    def softcap(self) -> float | None:
        """The kernel's score softcap, or `None`."""
        return getattr(_kernel(self).impl, "logits_soft_cap", None) or None

    def window(self) -> int | None:
        """How many keys a query sees, itself included, or `None` for all of them."""
        kernel = _kernel(self)
        window = getattr(kernel, "sliding_window", None)
        if isinstance(window, (tuple, list)):
            window = window[0] + 1 if window[0] is not None and window[0] >= 0 else None
        return window or None

    def slopes(self) -> torch.Tensor | None:
        """The kernel's ALiBi slopes, one per head, or `None`."""
        slopes = getattr(_kernel(self).impl, "alibi_slopes", None)
        if slopes is None:
            return None
        return torch.as_tensor(slopes)

    # -- values ---------------------------------------------------------------

    @Flat(
        "attn.inputs",
        select=0,
        description="The queries entering attention",
        unavailable=needs_child("attn", "attention"),
    )
    def attention_queries(self, rows) -> Queries:
        return rows.unflatten(-1, (self.num_heads, -1)).transpose(0, 1)

    @attention_queries.postprocess
    def attention_queries(self, value):
        return value.transpose(0, 1).flatten(-2)

    @Flat(
        "attn.inputs", select=1, description="The keys entering attention", unavailable=needs_child("attn", "attention")
    )
    def attention_keys(self, rows) -> Keys:
        return rows.unflatten(-1, (self.num_kv_heads, -1)).transpose(0, 1)

    @attention_keys.postprocess
    def attention_keys(self, value):
        return value.transpose(0, 1).flatten(-2)

    @Flat(
        "attn.inputs",
        select=2,
        description="The values entering attention",
        unavailable=needs_child("attn", "attention"),
    )
    def attention_values(self, rows) -> Values:
        return rows.unflatten(-1, (self.num_kv_heads, -1)).transpose(0, 1)

    @attention_values.postprocess
    def attention_values(self, value):
        return value.transpose(0, 1).flatten(-2)

    def _scores(self) -> Pattern:
        return causal_scores(
            self.attention_queries,
            self.attention_keys,
            self.scale(),
            softcap=self.softcap(),
            window=self.window(),
            slopes=self.slopes(),
        )

    attention_scores = DerivedEProperty(
        _scores, description="The attention scores entering the softmax, masked", unavailable=on_decode_step
    )

    def _probabilities(self) -> Pattern:
        return self.attention_scores.float().softmax(-1).to(self.attention_queries.dtype)

    attention_probabilities = DerivedEProperty(
        _probabilities, description="The attention pattern the values are mixed with", unavailable=on_decode_step
    )

    @Flat(
        "attn.output",
        description="The per-head outputs before the output projection",
        unavailable=needs_child("attn", "attention"),
    )
    def attention_head_outputs(self, rows) -> HeadOutputs:
        return rows.unflatten(-1, (self.num_heads, -1))

    @attention_head_outputs.postprocess
    def attention_head_outputs(self, value):
        return value.flatten(-2)

    @Flat(
        "o_proj.input",
        description="Every head's output side by side, as the output projection takes it",
        unavailable=needs_child("o_proj", "attention"),
    )
    def attention_premix(self, rows) -> HeadOutputs:
        return rows.unflatten(-1, (self.num_heads, -1))

    @attention_premix.postprocess
    def attention_premix(self, value):
        return value.flatten(-2)

    @Flat("output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows
