"""`TokenEProperty`: a value the forward holds flat over tokens, served as this invoke's `[batch, seq, ...]` rows.

A mixture's router and experts run on the stream flattened to `[batch * seq, ...]`.
nnsight scopes a served tensor to an invoke's rows only when its first axis is the
batch, so a flat tensor reaches every invoke whole. `TokenEProperty` cuts the rows
of the current invoke out of it as a view, unflattened to `[batch, seq, ...]`: an
in-place write lands on the model's tensor, and an assignment is spliced back into
the flat tensor around the other invokes' rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from nnsight.intervention.interleaver import Mediator

from .eproperty import EProperty, pick


def _scope(obj: Any, flat: Any) -> tuple[int, int, int, bool]:
    """(first row, row count, tokens per sequence, whether nnsight already narrowed) of this invoke in `flat`."""
    mediator = Mediator.current(f"{obj.path}")
    interleaver = mediator.interleaver
    batcher = None if interleaver is None else interleaver.batcher
    rows = flat.shape[0]
    total = getattr(batcher, "total", 0) or 1
    group = mediator.batch_group
    if batcher is None or not batcher.batching or group is None:
        if rows % total:
            raise ValueError(f"{obj.path}: {rows} flat tokens do not split over a batch of {total}")
        return 0, total, rows // total, False
    start, size = group
    if rows % total == 0:
        seq = rows // total
        return start * seq, size, seq, False
    # One token per sequence: the flat axis was the batch, and nnsight served this invoke's rows.
    return 0, size, rows // size, True


def token_rows(obj: Any, flat: Any) -> Any:
    """This invoke's rows of `flat` (`[batch * seq, ...]`) as a `[batch, seq, ...]` view."""
    first, batch, seq, _ = _scope(obj, flat)
    return flat[first : first + batch * seq].unflatten(0, (batch, seq))


def splice_rows(obj: Any, flat: Any, value: Any) -> Any:
    """`flat` with this invoke's rows replaced by `value` (`[batch, seq, ...]`)."""
    first, batch, seq, narrowed = _scope(obj, flat)
    rows = value.reshape(batch * seq, *value.shape[2:]).to(flat.dtype)
    if narrowed or (first == 0 and batch * seq == flat.shape[0]):
        return rows
    spliced = flat.clone()
    spliced[first : first + batch * seq] = rows
    return spliced


class TokenEProperty(EProperty):
    """An `EProperty` over a tensor the forward holds as `[batch * seq, ...]`, served as `[batch, seq, ...]`.

    The stub receives this invoke's rows, unflattened, as a view of the model's
    tensor; an assigned value is flattened and spliced into the served tensor. A
    tensor that already has as many axes as the layout is served as nnsight scopes
    it, so one descriptor covers a family that keeps the stream unflattened.
    """

    def __call__(self, preprocess: Callable) -> TokenEProperty:
        @functools.wraps(preprocess)
        def unflattened(obj: Any, value: Any) -> Any:
            return preprocess(obj, value if self._batched(value) else token_rows(obj, value))

        super().__call__(unflattened)
        self._postprocess = self._splice
        return self

    def postprocess(self, fn: Callable) -> TokenEProperty:
        """A write's own conversion, run before the rows are spliced back."""

        def converted(obj: Any, value: Any) -> Any:
            return self._splice(obj, fn(obj, value))

        self._postprocess = converted
        return self

    def _batched(self, value: Any) -> bool:
        """Whether the forward already holds `value` as `[batch, seq, ...]` (nnsight then scopes it itself)."""
        dims = self.dims
        return dims is not None and value.dim() == len(dims)

    def _splice(self, obj: Any, value: Any) -> Any:
        key = self._key(obj)
        location, attribute = self._resolve(obj, key)
        current = pick(attribute, Mediator.value(location), self._select(obj))
        if self._batched(current):
            return value
        return splice_rows(obj, current, value)
