"""The descriptors every standard value is made of.

`EProperty` is nnsight's `eproperty` with a key that is a *path* walked from the
host envoy on every access, an `unavailable=` reason checked before anything is
served, and a `select` that picks one element of what is served. A
`DerivedEProperty` computes a read-only value from other values, and
`unavailable(reason)` is the marker a family puts in place of a value it lacks.

Path grammar (the key):

- the last segment is `output`, `input` or `inputs` (`inputs` is the whole
  `(args, kwargs)` pair, `input` the first argument);
- a leading `/` walks from the model's root instead of the host;
- each leading `../` steps to the parent envoy, whose children then resolve by
  name or alias as the host's do (the parent's own forward may be drilled once,
  `../source.<op>.output`);
- any other segment is a child module (aliases resolve), `source`, or an operation
  of the `Source` reached so far, so `source.<call>.source.<op>` drills into a
  function the forward calls, which nnsight allows inside a trace only;
- a function of the host is also a key: it runs at read time and returns a path.
"""

from __future__ import annotations

import contextlib
import typing
import warnings
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, Union

import torch
from greenlet import getcurrent
from nnsight.intervention.envoy import Envoy
from nnsight.intervention.eproperty import WriteBack, eproperty
from nnsight.intervention.interleaver import Mediator, OutOfOrderError
from nnsight.intervention.source import SourceNotAvailable
from torch._guards import detect_fake_mode

from .index_view import guard, release
from .names import block_index, not_available, value_label, value_name

Reason = str | Callable[[Any], str | None] | None
Select = int | str | Callable[[Any], int | str | None] | None
# Marks a per-descriptor cache not filled yet (`None` is a cached answer).
_UNSET = object()


class Unavailable(RuntimeError):
    """A value this checkpoint lacks was read or written; raised before the model runs.

    A `RuntimeError` and never an `AttributeError`, so `hasattr` and `getattr(...,
    None)` do not mistake a missing value for a missing attribute and hide the reason.
    """


def _strip_optional(hint: Any) -> Any:
    """The non-`None` member of `X | None`, else the hint itself."""
    if typing.get_origin(hint) is Union:
        members = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(members) == 1:
            return members[0]
    return hint


def layout_name(layout: Any) -> str:
    """The name a layout prints under: its alias name, or jaxtyping's own spelling."""
    return getattr(layout, "__name__", repr(layout))


class EProperty(eproperty):
    """A standard value: a path from the host resolved into a served location on every access.

    Args:
        key: The path (see the module docstring), a function of the host returning
            one, or `None` for the attribute's own name.
        description: A capitalized sentence without a final period, shown by the
            repr and `support()`.
        unavailable: A reason string, or a predicate `f(envoy) -> str | None`,
            checked before every read and write.
        select: With `inputs`, a positional index or a keyword name; with
            `output`, an index into a returned tuple; or a function of the host
            returning either.
    """

    def __init__(
        self,
        key: str | Callable[[Any], str] | None = None,
        description: str | None = None,
        unavailable: Reason = None,
        select: Select = None,
    ) -> None:
        super().__init__(key=None, description=description)
        self.key = key
        self.unavailable = unavailable
        self.select = select

    # -- definition ------------------------------------------------------------

    def __call__(self, preprocess: Callable) -> EProperty:
        key = self.key
        super().__call__(preprocess)
        # nnsight fills a missing key with the stub's name; a function key is kept as is.
        self.key = key if key is not None else self.name
        return self

    def __set_name__(self, owner: type, name: str) -> None:
        # A marker (`unavailable("...")`) is never called on a stub, so this is where
        # it gets the name that `support()` and the repr show.
        if self.name is None:
            self.name = name
        if self.key is None:
            self.key = name

    # -- introspection ---------------------------------------------------------

    @property
    def layout(self) -> Any:
        """The declared layout: the stub's return annotation, or `None`."""
        if self._preprocess is None:
            return None
        try:
            hints = typing.get_type_hints(self._preprocess)
        except Exception:  # an annotation that does not evaluate is no layout
            return None
        hint = hints.get("return")
        if hint is None:
            return None
        hint = _strip_optional(hint)
        return hint if hasattr(hint, "dim_str") else None

    @property
    def index_bound(self) -> str | None:
        """The size attribute of the host that the values index below, for a layout of indices, else `None`."""
        cached = self.__dict__.get("_index_bound", _UNSET)
        if cached is _UNSET:
            cached = getattr(self.layout, "index_bound", None)
            self._index_bound = cached
        return cached

    @property
    def dims(self) -> tuple[str, ...] | None:
        """The layout's axis names, or `None` without a layout."""
        layout = self.layout
        return None if layout is None else tuple(layout.dim_str.split())

    def is_marker(self) -> bool:
        """Whether this is an `unavailable(...)` marker rather than a served value."""
        return self._preprocess is None and isinstance(self.unavailable, str)

    def inside_forward(self) -> bool:
        """Whether the key names an operation inside a forward (a `source` segment or a function key)."""
        if callable(self.key):
            return True
        return "source" in str(self.key).split(".")

    def __str__(self) -> str:
        if self.is_marker():
            return f"({self.name}): Unavailable: {self.unavailable}"
        layout = self.layout
        typed = f" -> {layout_name(layout)} [{' '.join(self.dims)}]" if layout is not None else ""
        return f"({self.name}){typed}: {self.description}"

    # -- availability ----------------------------------------------------------

    def reason(self, obj: Any) -> str | None:
        """Why this value is unavailable on `obj`, or `None` when it is available."""
        if self.unavailable is None:
            return None
        if isinstance(self.unavailable, str):
            return self.unavailable
        try:
            return self.unavailable(obj)
        except AttributeError as error:
            # An AttributeError escaping a descriptor reads as "no such attribute"
            # and would hide the predicate's own bug.
            raise RuntimeError(
                f"the availability check of {self.name!r} on {getattr(obj, 'path', obj)} failed: {error}"
            ) from error

    def _check(self, obj: Any) -> None:
        reason = self.reason(obj)
        if reason:
            raise Unavailable(not_available(obj, self.name, reason))

    # -- resolution ------------------------------------------------------------

    def _key(self, obj: Any) -> str:
        key = self.key(obj) if callable(self.key) else self.key
        if not isinstance(key, str) or not key:
            raise ValueError(f"{obj.path}.{self.name} has no path to read: its key gave {key!r}")
        return key

    def _select(self, obj: Any) -> int | str | None:
        return self.select(obj) if callable(self.select) else self.select

    def _resolve(self, obj: Any, key: str) -> tuple[str, str]:
        """The served location of `key` from `obj`, and its last segment."""
        return resolve(obj, key, walk=True, name=self.name)

    # -- read and write ----------------------------------------------------------

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        self._check(obj)
        key = self._key(obj)
        select = self._select(obj)
        interleaver = getattr(obj, "interleaver", None)
        if interleaver is not None and not interleaver.interleaving:
            # Outside a trace nothing is served; a drill would fail with a message about
            # `.source` rather than about where the read happened.
            location, _ = resolve(obj, key, walk=False, name=self.name)
            raise ValueError(f"Cannot access `{location}` outside of interleaving: read values inside a trace")
        with named_request(obj, self.name, "requested"):
            location, attribute = self._resolve(obj, key)
            check_not_skipped(obj, self.name, location)
            mediator = occurrence = None
            if self._hands_back():
                mediator = Mediator.current(location)
                occurrence = mediator.wanted(location)
                waiting = mediator.transform
                if waiting is not None and waiting.key == (self, location, occurrence):
                    return waiting.view
            value, back = self._serve(obj, Mediator.value(location), attribute, select)
        if back is not None:
            mediator.transform = WriteBack(back, value, self, location, occurrence)
        return value

    def _hands_back(self) -> bool:
        """Whether a read hands its value back to the model when the block moves on.

        A `.transform` hands the edited view back; a value of indices goes back through
        `check_indices`, so an in-place edit outside the range is refused before the
        model consumes it, and is served as an `IndexView`, which refuses an in-place
        write of a non-integer at the write, before torch casts it.
        """
        return self._transform is not None or self.index_bound is not None

    def _serve(self, obj: Any, raw: Any, attribute: str, select: Any) -> tuple[Any, Callable[[], Any] | None]:
        """The value a read of the served `raw` gives, and what hands it back to the model (`None`: nothing).

        The hand-back is `None` wherever `_hands_back()` is false; it runs when the block
        moves on and returns what the location then holds.
        """
        element = pick(attribute, raw, select)
        value = self._preprocess(obj, element) if self._preprocess is not None else element
        if not self._hands_back():
            return value, None
        if self.index_bound is not None and isinstance(value, torch.Tensor):
            label, expected = self._index_terms(obj)
            value = guard(value, label, expected)
        return value, partial(_write_back, self, obj, value, raw, element, attribute, select)

    def __set__(self, obj: Any, value: Any) -> None:
        if keep_native_child(obj, self.name, value):
            return
        self._check(obj)
        key = self._key(obj)
        select = self._select(obj)
        with named_request(obj, self.name, "assigned"):
            location, attribute = self._resolve(obj, key)
            check_not_skipped(obj, self.name, location)
            self._check_write(obj, value, Mediator.value(location), attribute, select)
            if self._postprocess is not None:
                value = self._postprocess(obj, value)
            if select is not None or attribute == "input":
                value = put(attribute, Mediator.value(location), value, select)
            Mediator.swap(location, value)

    def _check_write(self, obj: Any, value: Any, raw: Any, attribute: str, select: Any) -> None:
        """Refuse a tensor whose shape or dtype differs from what a read of this value gives now.

        A mismatched tensor would otherwise travel on and fail far from the assignment,
        inside a later module, or silently change the dtype of the rest of the forward.
        """
        current = pick(attribute, raw, select)
        if self._preprocess is not None:
            current = self._preprocess(obj, current)
        if not isinstance(current, torch.Tensor):
            return
        label = value_label(obj, self.name)
        if not isinstance(value, torch.Tensor):
            convert = "torch.from_numpy(value)" if type(value).__module__ == "numpy" else "torch.tensor(value)"
            raise TypeError(
                f"{label} takes a torch.Tensor, {current.dtype} of shape {tuple(current.shape)} in this run, and "
                f"cannot be assigned a {type(value).__module__}.{type(value).__qualname__}; convert it first with "
                f"`{convert}.to({current.dtype})`"
            )
        # The model's own input sets the run's sequence length, so only its rank is held.
        sets_the_run = attribute in ("input", "inputs") and getattr(obj, "parent", None) is None
        if sets_the_run and value.dim() != current.dim():
            raise ValueError(
                f"{label} is {current.dim()}-D, {tuple(current.shape)} in this run, and cannot be assigned a "
                f"{value.dim()}-D tensor of shape {tuple(value.shape)}; assign a [batch, seq] tensor"
            )
        if not sets_the_run and value.shape != current.shape:
            raise ValueError(
                f"{label} is {tuple(current.shape)} in this run and cannot be assigned a tensor of shape "
                f"{tuple(value.shape)}; assign one of shape {tuple(current.shape)}, or edit it in place "
                f"(`{self.name}[...] = ...`) to broadcast a smaller tensor"
            )
        self.check_indices(obj, value, "assigned")
        if value.dtype != current.dtype:
            raise ValueError(
                f"{label} is {current.dtype} in this run and cannot be assigned a {value.dtype} tensor; "
                f"cast it first with `.to({current.dtype})`"
            )

    def _index_terms(self, obj: Any) -> tuple[str, str]:
        """How an index error names this value on `obj`, and which ids it says the value takes."""
        name = self.index_bound
        bound = getattr(obj, name, None)
        expected = f"integer ids from 0 to {name} - 1 = {bound - 1}" if bound else f"integer ids below {name}"
        return value_label(obj, self.name), expected

    def check_indices(self, obj: Any, value: Any, how: str) -> None:
        """Refuse values of an index layout that are not integers in `[0, bound)`, `bound` the host's `index_bound`.

        An index past the range would send the model to memory it does not own (a
        wrong result, no error) or fail deep inside a kernel; `how` says how the value
        came (``"assigned"``, ``"edited in place to"``). A non-integer written in place
        (`[:] = 1.5`) is truncated by torch at the write, so it is refused there, by the
        `IndexView` a read serves, rather than here.
        """
        name = self.index_bound
        if name is None or not isinstance(value, torch.Tensor):
            return
        bound = getattr(obj, name, None)
        label, expected = self._index_terms(obj)
        if value.is_floating_point() or value.is_complex() or value.dtype == torch.bool:
            raise ValueError(
                f"{label} holds indices and was {how} a {value.dtype} tensor; pass {expected}, as an integer "
                f"tensor (e.g. torch.full_like({self.name}, 2))"
            )
        if not bound or value.numel() == 0 or value.is_meta or detect_fake_mode(value) is not None:
            return
        outside = (value < 0) | (value >= bound)
        if bool(outside.any()):
            wrong = value[outside].unique()[:5].tolist()
            raise IndexError(
                f"{label} was {how} {wrong}, outside the range: this block has {name}={bound}, so pass "
                f"{expected} (negative ids do not count from the end)"
            )


def mark_skipped(block: Any, index: int, start: int, end: int) -> None:
    """Record, for the running worker, that `skip_layers(start, end)` skipped block `index`.

    The record lives on the worker greenlet, so it ends with the trace's invoke.
    """
    worker = getcurrent()
    skipped = getattr(worker, "_nnterp_skipped", None)
    if skipped is None:
        skipped = worker._nnterp_skipped = {}
    # A block with a `skip` of its own (XLM's) hands the replacement on through its modules, whose inputs and
    # outputs are then served; only the operations inside their forwards never run.
    through_modules = type(block).skip is not Envoy.skip
    skipped[block.path] = (index, start, end, through_modules)


def check_not_skipped(obj: Any, name: str | None, location: str) -> None:
    """Refuse a value served inside a block that `skip_layers` skipped: the block's forward never runs.

    The block's own input and output stay readable: the skip hands its output over.
    """
    skipped = getattr(getcurrent(), "_nnterp_skipped", None)
    if not skipped:
        return
    for path, (index, start, end, through_modules) in skipped.items():
        if not location.startswith(f"{path}.") or location in (f"{path}.output", f"{path}.input"):
            continue
        if not through_modules or "source" in location[len(path) + 1 :].split("."):
            span = f"block {start}" if start == end else f"blocks {start} to {end}"
            raise ValueError(
                f"{value_label(obj, name)} is inside block {index}, which skip_layers({start}, {end}) "
                f"skipped, so it never runs; read a value outside {span}, or layers[{end}].layer_output, what the skip "
                "passes on"
            )


#: What nnsight says of a request the run passed, for the request it names.
PASSED = "'{}' was requested but the model already ran past it"


@contextlib.contextmanager
def named_request(obj: Any, name: str | None, verb: str) -> Iterator[None]:
    """Name the value in an `OutOfOrderError` nnsight raises for a read or write of it, native location after.

    nnsight throws the error into the worker at the request it parked on, and the
    value's read (or write) is the frame that made that request, so the error is
    renamed here, in place: the same object travels on, which nnsight checks for a
    loop that outran the run. An enclosing value (a derived one) names itself over
    the value it reads, since that is the name the user wrote. Any other
    `OutOfOrderError` (one nnterp raises with its own reason) passes unchanged.
    """
    try:
        yield
    except OutOfOrderError as error:
        location = getattr(error, "location", None)
        if location is None:
            pending = _pending()
            if pending is None or str(error) != PASSED.format(pending):
                raise
            location = str(pending)
        index = block_index(obj)
        order = f", as model.order({index}) lists block {index}'s" if index is not None else ""
        error.location = location
        error.args = (
            f"{value_name(obj, name)} was {verb} but the model already ran past it: read and write values in forward "
            f"order{order} (native location '{location}')",
        )
        raise


def _pending() -> Any:
    """The request the running worker is parked on, or `None`."""
    mediator = getattr(getcurrent(), "mediator", None)
    mediator = mediator() if mediator is not None else None
    return getattr(mediator, "pending", None)


def keep_native_child(obj: Any, name: str | None, value: Any) -> bool:
    """File a child module whose native name is a standard value's under ``E_<name>``; `True` when it did.

    nnsight builds a child envoy by setting it on its parent under the module's own
    name. Where a family's class serves a value of that name (a native module called
    `mlp_input`), the value keeps the name and the module is reached as
    `E_mlp_input`, the spelling nnsight gives a module named like one of its own
    attributes, so a load never fails on a name collision.
    """
    child_map = getattr(obj, "__dict__", {}).get("_child_map")
    if name is None or child_map is None or child_map.get(name) is not value:
        return False
    attribute = f"{type(obj).OVERLOAD_PREFIX}{name}"
    object.__setattr__(obj, attribute, value)
    obj._aliases[attribute] = name
    warnings.warn(
        f"Module '{obj.path}' has a submodule named '{name}', which is also a standard value there. "
        f"The submodule is '.{attribute}'; '.{name}' stays the standard value.",
        stacklevel=2,
    )
    return True


def _write_back(prop, obj, view, raw, element, attribute, select):
    # The model takes the value now: later writes to the view no longer reach it, so the guard ends.
    release(view)
    prop.check_indices(obj, view, "edited in place to")
    if prop._transform is None:  # the view is the model's own tensor: the edit is in place already
        return raw
    edited = prop._transform(obj, view, element)
    if select is None and attribute != "input":
        return edited
    return put(attribute, raw, edited, select)


class DerivedEProperty(EProperty):
    """A read-only value computed from other values by `compute(envoy)` at read time.

    Forward order applies to what `compute` reads. Assignment raises `AttributeError`.
    """

    def __init__(
        self,
        compute: Callable[[Any], Any],
        description: str | None = None,
        unavailable: Reason = None,
    ) -> None:
        super().__init__(key=None, description=description, unavailable=unavailable)
        # Stored as the preprocess so that `layout` reads its return annotation.
        self._preprocess = compute
        self.__doc__ = compute.__doc__

    def inside_forward(self) -> bool:
        return False

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        self._check(obj)
        with named_request(obj, self.name, "requested"):
            return self._preprocess(obj)

    def __set__(self, obj: Any, value: Any) -> None:
        if keep_native_child(obj, self.name, value):
            return
        raise AttributeError(f"{self.name} is derived and read-only")


def unavailable(reason: str) -> EProperty:
    """The marker a family assigns in place of a value it lacks, with the reason.

    It keeps the name in the tree, prints as `(name): Unavailable: <reason>`, makes
    `support()` report the reason, and makes every read and write raise `Unavailable`.
    """
    return EProperty(unavailable=reason, description=f"Unavailable: {reason}")


# -- paths -------------------------------------------------------------------------


def resolve(obj: Any, key: str, walk: bool = True, name: str | None = None) -> tuple[str, str]:
    """Turn `key` into the location string nnsight serves, and its last segment.

    With `walk=False` nothing is drilled: segments after the first `source` are
    joined as strings, which gives the same location a drill would serve and lets
    `order()` name locations before a run.
    """
    label = f"{obj.path}.{name}" if name else obj.path
    node = obj
    if key.startswith("/"):
        key = key[1:]
        if key.startswith("../"):
            raise ValueError(f"{label} reads {'/' + key!r}: nothing is above the root")
        node = obj.root
    ups = 0
    while key.startswith("../"):
        ups += 1
        key = key[3:]
    *segments, attribute = key.split(".")
    if attribute not in ("output", "input", "inputs"):
        raise ValueError(f"{label} reads {key!r}: a path ends in 'output', 'input' or 'inputs'")
    served = "input" if attribute == "inputs" else attribute
    if ups:
        if segments.count("source") > 1:
            raise ValueError(
                f"{label} reads {key!r}: above the host a path names the parent's own forward only;"
                " anchor a drill into a call at '/' instead"
            )
        base = node.path.split(".")
        if ups >= len(base):
            raise ValueError(f"{label} reads {key!r}: it climbs above the root")
        above = node
        for _ in range(ups):
            above = above.parent if above is not None else None
        if above is None:  # an envoy built without its parent: the native path, as a string
            prefix = ".".join(base[: len(base) - ups])
            return ".".join([prefix, *segments, served]), attribute
        cut = segments.index("source") if "source" in segments else len(segments)
        for segment in segments[:cut]:  # aliases of the parent's children resolve as the host's do
            above = getattr(above, segment)
        return ".".join([above.path, *segments[cut:], served]), attribute
    if not walk:
        modules, rest = segments, []
        if "source" in segments:
            cut = segments.index("source")
            modules, rest = segments[:cut], segments[cut:]
        for segment in modules:
            node = getattr(node, segment)
        return ".".join([node.path, *rest, served]), attribute
    try:
        for segment in segments:
            node = getattr(node, segment)
    except (AttributeError, SourceNotAvailable) as error:
        raise SourceNotAvailable(f"{label} reads {key!r}, which this run does not have: {error}") from error
    return f"{node.path}.{served}", attribute


def pick(attribute: str, value: Any, select: int | str | None) -> Any:
    """One element of a served value: `input` is the first argument, `inputs`/`output` index by `select`."""
    if attribute == "input":
        args, kwargs = value
        return args[0] if args else next(iter(kwargs.values()))
    if select is None:
        return value
    if attribute == "inputs":
        args, kwargs = value
        if isinstance(select, int):
            if select >= len(args):
                raise IndexError(
                    f"select={select} names a positional argument, and this call has {len(args)}; "
                    f"its keyword arguments are {sorted(kwargs)}: select one by name"
                )
            return args[select]
        return kwargs.get(select)
    return value[select]


def put(attribute: str, current: Any, new: Any, select: int | str | None) -> Any:
    """`current` with the element `pick` takes replaced by `new`."""
    if attribute == "input":
        args, kwargs = current
        if args:
            return (new, *args[1:]), kwargs
        first = next(iter(kwargs))
        return args, {**kwargs, first: new}
    if select is None:
        return new
    if attribute == "inputs":
        args, kwargs = current
        if isinstance(select, int):
            return (*args[:select], new, *args[select + 1 :]), kwargs
        return args, {**kwargs, select: new}
    items = list(current)
    items[select] = new
    # A forward that concatenates the returned list (GPT-1's `[a] + outputs[1:]`) needs a list back.
    return items if isinstance(current, list) else tuple(items)
