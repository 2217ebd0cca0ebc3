"""`Flat`: a value vLLM keeps as ``[tokens, ...]`` rows, served as a private ``[1, tokens, ...]`` copy.

vLLM runs every request of a step in one flat batch of tokens, and nnsight narrows
what a block is served to its own request's rows, as a view into buffers that the
engine's fused kernels rewrite in place a few operations later. A `Flat` value is
cloned at the read, given the batch axis back (always 1), and, unless it is
read-only, handed back to the model when the block moves on: an in-place edit of
the copy and an assignment both reach the model. An assigned value keeps the shape
it was served with, since its rows are spliced into a step the engine runs for
every request in flight.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import torch
from nnsight.intervention.interleaver import Mediator

from nnterp.components import EProperty, pick, put

#: What a write of another shape is told to do instead.
ROWS_HINT = "write into the rows you mean instead (``value[:, positions] = ...``)"


def shape_error(obj: Any, name: str, served: tuple, given: tuple) -> ValueError:
    """The error an assignment of another shape raises, naming the value and both shapes."""
    return ValueError(
        f"{obj.path}.{name} is {tuple(served)} on this request and cannot be replaced by a value of shape "
        f"{tuple(given)}; {ROWS_HINT}"
    )


class Flat(EProperty):
    """A standard value over vLLM's ``[tokens, ...]`` rows, served as a private ``[1, tokens, ...]`` copy.

    The decorated stub maps the request's rows to the value's layout without the
    batch axis (identity for a stream), and a function registered with
    ``.postprocess`` maps a value of that layout back to rows (identity when
    absent). `take` and `give` say which tensor of the served location the rows
    are; the default is `select`'s element, or the first tensor of a returned tuple.

    Args:
        read_only: Refuse assignment, and hand nothing back after a read.
    """

    def __init__(
        self,
        key: Any = None,
        description: str | None = None,
        unavailable: Any = None,
        select: Any = None,
        read_only: bool = False,
    ) -> None:
        super().__init__(key=key, description=description, unavailable=unavailable, select=select)
        self.read_only = read_only

    # -- the rows of a served location --------------------------------------------

    def take(self, obj: Any, raw: Any, attribute: str, select: Any) -> torch.Tensor:
        """The live rows this value reads out of the served location."""
        element = pick(attribute, raw, select)
        if select is None and attribute == "output" and isinstance(element, (tuple, list)):
            element = element[0]
        return element

    def give(self, obj: Any, raw: Any, attribute: str, select: Any, rows: torch.Tensor) -> Any:
        """The served location with this value's rows replaced by `rows`."""
        if select is None and attribute == "output" and isinstance(raw, (tuple, list)):
            return type(raw)((rows, *raw[1:])) if isinstance(raw, tuple) else [rows, *raw[1:]]
        return put(attribute, raw, rows, select)

    # -- layout -------------------------------------------------------------------

    def _view(self, obj: Any, rows: torch.Tensor) -> torch.Tensor:
        value = self._preprocess(obj, rows) if self._preprocess is not None else rows
        return value.unsqueeze(0)

    def _rows(self, obj: Any, value: torch.Tensor) -> torch.Tensor:
        value = value[0]
        return self._postprocess(obj, value) if self._postprocess is not None else value

    # -- read and write -------------------------------------------------------------

    # The read is `EProperty.__get__`'s: these two hooks make it serve a private copy and hand it back.

    def _hands_back(self) -> bool:
        return not self.read_only

    def _serve(self, obj: Any, raw: Any, attribute: str, select: Any) -> tuple[Any, Any]:
        live = self.take(obj, raw, attribute, select)
        value = self._view(obj, live.clone())
        if self.read_only:
            return value, None
        return value, partial(self._write_back, obj, value, raw, attribute, select, live)

    def _write_back(self, obj: Any, value: Any, raw: Any, attribute: str, select: Any, live: torch.Tensor) -> Any:
        served = self._view(obj, live).shape
        if tuple(value.shape) != tuple(served):
            raise shape_error(obj, self.name, served, value.shape)
        rows = self._rows(obj, value).to(live.dtype)
        if torch.equal(rows, live):
            # Unedited: the model keeps its own tensors, bit for bit.
            return raw
        return self.give(obj, raw, attribute, select, rows.reshape(live.shape))

    def __set__(self, obj: Any, value: Any) -> None:
        if self.read_only:
            raise AttributeError(f"{self.name} is read-only on the vllm engine")
        self._check(obj)
        key = self._key(obj)
        select = self._select(obj)
        location, attribute = self._resolve(obj, key)
        raw = Mediator.value(location)
        live = self.take(obj, raw, attribute, select)
        served = self._view(obj, live).shape
        if not isinstance(value, torch.Tensor) or tuple(value.shape) != tuple(served):
            raise shape_error(obj, self.name, served, getattr(value, "shape", ()))
        rows = self._rows(obj, value).to(dtype=live.dtype, device=live.device).reshape(live.shape)
        Mediator.swap(location, self.give(obj, raw, attribute, select, rows))


class Rows(Flat):
    """A value served as the engine's own rows, without a batch axis added: ``[tokens, ...]`` (``FlatResidual``).

    For a family whose transformers engine serves the value flat over tokens too (OPT's feed-forward path), and
    for a value that arrives with its batch axis already.
    """

    def _view(self, obj: Any, rows: torch.Tensor) -> torch.Tensor:
        return self._preprocess(obj, rows) if self._preprocess is not None else rows

    def _rows(self, obj: Any, value: torch.Tensor) -> torch.Tensor:
        return self._postprocess(obj, value) if self._postprocess is not None else value


class Sum(Flat):
    """A stream vLLM carries as two halves whose sum it is: ``(hidden_states, residual)``.

    `parts` locates the halves in the served value: two positional indices with
    their keyword names for a call's ``inputs``, or two indices into a returned
    tuple for an ``output``. A missing residual (``None``, as block 0 receives)
    counts as zero. A write hands the model the new stream as the first half and
    zeros as the second, which the next fused add turns back into the stream.
    """

    def __init__(
        self, key: Any = None, description: str | None = None, unavailable: Any = None, parts: Any = None
    ) -> None:
        super().__init__(key=key, description=description, unavailable=unavailable)
        self.parts = parts

    def _parts(self, obj: Any) -> tuple:
        return self.parts(obj) if callable(self.parts) else self.parts

    @staticmethod
    def _locate(raw: Any, attribute: str, part: Any) -> tuple[str, Any]:
        if attribute == "output":
            return "index", part
        index, name = part
        args, kwargs = raw
        return ("arg", index) if index < len(args) else ("kwarg", name)

    def _get(self, raw: Any, attribute: str, part: Any) -> Any:
        kind, where = self._locate(raw, attribute, part)
        if kind == "index":
            return raw[where]
        args, kwargs = raw
        return args[where] if kind == "arg" else kwargs.get(where)

    def _set(self, raw: Any, attribute: str, part: Any, new: Any) -> Any:
        kind, where = self._locate(raw, attribute, part)
        if kind == "index":
            items = list(raw)
            items[where] = new
            return tuple(items)
        args, kwargs = raw
        if kind == "arg":
            return (*args[:where], new, *args[where + 1 :]), kwargs
        return args, {**kwargs, where: new}

    def take(self, obj: Any, raw: Any, attribute: str, select: Any) -> torch.Tensor:
        first, second = self._parts(obj)
        hidden = self._get(raw, attribute, first)
        residual = self._get(raw, attribute, second)
        return hidden if residual is None else hidden + residual

    def give(self, obj: Any, raw: Any, attribute: str, select: Any, rows: torch.Tensor) -> Any:
        first, second = self._parts(obj)
        residual = self._get(raw, attribute, second)
        raw = self._set(raw, attribute, first, rows)
        if residual is not None:
            raw = self._set(raw, attribute, second, torch.zeros_like(residual))
        return raw


def step_reason(envoy: Any, location: str, reason: str) -> str | None:
    """`reason` when the running block is asking for a decode step of `location`, else `None`.

    Outside a block (`support()`) nothing is running, and the value counts as available.
    """
    from greenlet import getcurrent

    handle = getattr(getcurrent(), "mediator", None)
    if handle is None:
        return None
    mediator = handle()
    if mediator is None or mediator.interleaver is None:
        return None
    return reason if mediator.wanted(location) else None
