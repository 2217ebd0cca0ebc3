"""The recurrent mixers' base: which kernel a call runs, the pure-torch kernels, routing, the state per token.

A recurrent mixer (a gated DeltaNet, a Mamba-1 or a Mamba-2 mixer) hands its
sequence to a kernel function of its modeling module: one kernel for a prompt, one
for a decode step over a cached state. Its values are that call's arguments and
results, so `RecurrentMixer` holds what every mixer shares:

- `KERNEL` decides once per call which of the two kernels fires, by the forward's
  own test (one token over a cached state), and `kernel(attribute)` is the key
  function the values are declared on;
- `needs_torch_kernels` refuses where the kernel name dispatches to a compiled
  kernel with no Python source;
- `route_kernels(family, "torch")` rebinds a family's kernel names, process-wide,
  to transformers' pure-torch functions, and `"default"` puts the originals back;
- `state`, `states`, `state_after(t)` and `set_state_after(t, value)` address the
  binding of the state after each token inside the token-by-token kernel, by
  occurrence.

A subclass names its kernels (`CHUNK_KERNEL`, `RECURRENT_KERNEL`), its per-token
state binding (`STATE_OP`, `STEP_STATE_OP`) and declares its values.
"""

from __future__ import annotations

import contextlib
import inspect
import sys
from collections.abc import Callable, Iterator
from typing import Any

import torch
from greenlet import getcurrent
from jaxtyping import Float
from nnsight.intervention.interleaver import Mediator, OutOfOrderError
from torch import Tensor

from .eproperty import EProperty
from .layer import Layer, Residual
from .names import missing_module, native_note, standard_path, value_label
from .standard import BATCH, KEY_DIM, MIXER_HEADS, SEQ, VALUE_DIM, Standard, first_tensor, named_layout, rewrap

# The state of a DeltaNet head or a Mamba-2 head: one key-by-value matrix per head.
State = named_layout("State", Float[Tensor, f"{BATCH} {MIXER_HEADS} {KEY_DIM} {VALUE_DIM}"])
# That state after every token of a call.
States = named_layout("States", Float[Tensor, f"{BATCH} {SEQ} {MIXER_HEADS} {KEY_DIM} {VALUE_DIM}"])

#: The keyword a mixer's forward receives its cache under, across releases.
CACHE_ARGUMENTS = ("cache", "cache_params", "past_key_values")


def check_state(envoy: Any, name: str, value: Any, shape: tuple, layout: str) -> None:
    """Refuse a state written where no state is served to compare with (a fresh prompt's): `shape` is expected."""
    label = value_label(envoy, name)
    expected = f"a tensor of shape {tuple(shape)}, {layout}"
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{label} takes {expected}, got {type(value).__name__}")
    if tuple(value.shape) != tuple(shape):
        raise ValueError(f"{label} takes {expected}, got shape {tuple(value.shape)}")


# -- once per call --------------------------------------------------------------------


def _mediator(envoy: Any) -> Any:
    return Mediator.current(f"{envoy.path}.output")


def call_index(envoy: Any) -> int:
    """Which call of `envoy` the running worker is in: the pinned step, else the calls already past."""
    mediator = _mediator(envoy)
    return mediator.iteration or mediator.occurrence(f"{envoy.path}.output")


def per_call(envoy: Any, key: str, compute: Callable[[], Any]) -> Any:
    """`compute()` once per call of `envoy` for this worker, kept under `key`.

    The record lives on the worker greenlet that runs the intervention code, so two
    invokes (two workers) never share one, and nothing stays on the envoy.
    """
    worker = getcurrent()
    records = getattr(worker, "_nnterp_calls", None)
    if records is None:
        records = {}
        worker._nnterp_calls = records
    call = call_index(envoy)
    record = records.get((envoy.path, key))
    if record is not None and record[0] == call:
        return record[1]
    value = compute()
    records[(envoy.path, key)] = (call, value)
    return value


@contextlib.contextmanager
def pinned(occurrence: int | None) -> Iterator[None]:
    """Pin the running worker's next read to `occurrence` (`None`: relaxed), as `tracer.iter[n]` does.

    The first read served at a non-zero pin relaxes it, so a `with` holds one read;
    the previous pin comes back on exit.
    """
    mediator = Mediator.current("a pinned read")
    previous = mediator.iteration
    mediator.iteration = occurrence
    try:
        yield
    finally:
        mediator.iteration = previous


def interleaving(envoy: Any) -> bool:
    interleaver = getattr(envoy, "interleaver", None)
    return bool(interleaver is not None and interleaver.interleaving)


# -- the kernels ----------------------------------------------------------------------


def base_name(label: str) -> str:
    """The module-level name an operation label calls: ``torch_chunk_gated_delta_rule_0`` -> its function."""
    return label.rsplit("_", 1)[0]


def _closure(fn: Any) -> dict[str, Any]:
    try:
        return inspect.getclosurevars(fn).nonlocals
    except TypeError:  # a builtin or a callable object
        return {}


def torch_function(fn: Any) -> Any:
    """The pure-torch body behind a kernel name: the hub dispatcher's `torch_function`, else `fn` itself."""
    return _closure(fn).get("torch_function", fn)


def _dispatch(fn: Any) -> tuple[Any, Any, str | None]:
    """(torch function, implementation that runs, package) of a kernel name's binding."""
    closure = _closure(fn)
    if "torch_function" in closure and "implementation" in closure:
        return closure["torch_function"], closure["implementation"], closure.get("package")
    return fn, fn, None


def modeling_module(envoy: Any) -> Any:
    """The modeling module that defines the mixer's class, whose globals its forward calls."""
    return sys.modules[type(envoy._module).__module__]


def needs_torch_kernels(envoy: Any) -> str | None:
    """Why the kernel values are missing: a kernel name dispatches to a compiled kernel with no Python source."""
    module = modeling_module(envoy)
    for label in type(envoy).kernel_labels():
        function, implementation, package = _dispatch(getattr(module, base_name(label)))
        if implementation is not function:
            return (
                f"read inside transformers' pure-torch {base_name(label)}, but this process dispatches it to an "
                f"optimized kernel ({package}) that has no Python source to read; uninstall {package}, or call "
                "nnterp.route_kernels(model.family, 'torch'), to read these values"
            )
    return None


def needs_recurrent_routing(envoy: Any) -> str | None:
    """Why `state` and `states` are missing: no per-token binding, a compiled kernel, or an unrouted prompt kernel."""
    cls = type(envoy)
    if cls.STATE_OP is None:
        return envoy.no_token_state()
    reason = needs_torch_kernels(envoy)
    if reason:
        return reason
    module = modeling_module(envoy)
    prompt = getattr(module, base_name(cls.CHUNK_KERNEL))
    if prompt is not cls.prompt_loop(module):
        return (
            "the chunked kernel a prompt runs through carries the state from one chunk to the next and never holds "
            "it after each token, which only the token-by-token kernel does. Call "
            "nnterp.route_kernels(model.family, 'torch') before the first trace of this layer (slower, as "
            "attn_implementation='eager' is)"
        )
    return None


def _stash(module: Any, names: tuple[str, ...]) -> dict[str, Any]:
    stash = module.__dict__.setdefault("_nnterp_kernels", {})
    for name in names:
        stash.setdefault(name, getattr(module, name))
    return stash


def _mixers(family: Any) -> list[tuple[Any, type]]:
    """(modeling module, mixer envoy class) of every recurrent mixer a family's `ENVOYS` maps."""
    found = []
    for module_type, envoy_class in getattr(family, "ENVOYS", {}).items():
        if isinstance(module_type, type) and isinstance(envoy_class, type) and issubclass(envoy_class, RecurrentMixer):
            found.append((sys.modules[module_type.__module__], envoy_class))
    return found


def route_kernels(family: Any, kernel: str = "torch") -> None:
    """Rebind a family's recurrent kernels, process-wide, to transformers' pure-torch functions.

    Args:
        family: The family module (`model.family` on a loaded model).
        kernel: ``"torch"`` binds each kernel name of the family's modeling module to
            its pure-torch function, and the prompt's name to the token-by-token loop
            where the mixer reads the state per token; ``"default"`` restores the
            binding the module had at import.

    The forward of a mixer reads the names when nnsight first instruments it, so
    route before the first trace that touches a mixer of the family.
    """
    if kernel not in ("torch", "default"):
        raise ValueError(f"route_kernels takes kernel='torch' or 'default', not {kernel!r}")
    mixers = _mixers(family)
    if not mixers:
        raise ValueError(f"{getattr(family, '__name__', family)!r} maps no recurrent mixer: nothing to route")
    for module, mixer in mixers:
        names = tuple(base_name(label) for label in mixer.kernel_labels())
        stash = _stash(module, names)
        for name in names:
            if kernel == "default":
                setattr(module, name, stash[name])
            else:
                setattr(module, name, mixer.routed(module, name, stash))


def route_delta_rule(family: Any, kernel: str = "recurrent") -> None:
    """`route_kernels` in the delta rule's words: ``"recurrent"`` is ``"torch"``, ``"chunked"`` is ``"default"``."""
    spelled = {"recurrent": "torch", "chunked": "default"}
    if kernel not in spelled:
        raise ValueError(f"route_delta_rule takes kernel='recurrent' or 'chunked', not {kernel!r}")
    route_kernels(family, spelled[kernel])


#: The call inside transformers' hub dispatcher that runs the function it picked.
DISPATCHED = "implementation_0"


def body_path(envoy: Any, label: str) -> str:
    """The path of the body of the kernel under `label`: one drill, and one more through an unrouted dispatcher."""
    fn = getattr(modeling_module(envoy), base_name(label))
    hop = f".{DISPATCHED}.source" if torch_function(fn) is not fn else ""
    return f"source.{label}.source{hop}"


def walk(envoy: Any, path: str) -> Any:
    """The envoy or operation `path` names from `envoy` (drilling where it says `source`)."""
    node = envoy
    for segment in path.split("."):
        node = getattr(node, segment)
    return node


def kernel(attribute: str) -> Callable[[Any], str]:
    """The key function of a kernel value: `source.<the kernel this call runs>.<attribute>`."""

    def key(envoy: Any) -> str:
        return f"source.{type(envoy).KERNEL(envoy)}.{attribute}"

    key.__name__ = f"kernel_{attribute}"
    return key


def _arguments_of(envoy: Any) -> tuple[tuple, dict]:
    args, kwargs = Mediator.value(f"{envoy.path}.input")
    return args, kwargs


class RecurrentMixer(Standard):
    """A recurrent mixer, `model.layers[i].linear_attn`, whose values are read at its kernel call.

    Class constants a subclass sets:

    - `CHUNK_KERNEL`, `RECURRENT_KERNEL`: the operation labels of the prompt's and the
      decode step's kernel calls in the forward (`torch_chunk_gated_delta_rule_0`).
    - `STATE_OP`: inside the token-by-token kernel, the binding of the state after
      each token's update, or `None` where no kernel binds it per token.
    - `STEP_STATE_OP`: where the decode kernel updates the state once rather than
      looping, the binding of the new state inside it.
    - `PROMPT_LOOP`: the label whose pure-torch function the prompt's name is routed
      to (`None`: its own), for a mixer whose prompt kernel is chunked.
    """

    CHUNK_KERNEL: str = ""
    RECURRENT_KERNEL: str = ""
    STATE_OP: str | None = None
    STEP_STATE_OP: str | None = None
    PROMPT_LOOP: str | None = None
    #: Where each kernel takes its arguments by name: a position, or the keyword it is passed under.
    CHUNK_ARGUMENTS: dict[str, int | str] = {}
    RECURRENT_ARGUMENTS: dict[str, int | str] = {}
    #: Inside the decode kernel, the binding of the new state as the cache receives it, where the kernel
    #: returns none (`state_output` on a decode step).
    STEP_OUTPUT_OP: str | None = None

    # -- the kernels ------------------------------------------------------------------

    @classmethod
    def kernel_labels(cls) -> tuple[str, str]:
        return cls.CHUNK_KERNEL, cls.RECURRENT_KERNEL

    @classmethod
    def prompt_loop(cls, module: Any) -> Any:
        """The function a routed prompt's name is bound to."""
        stash = module.__dict__.get("_nnterp_kernels", {})
        source = base_name(cls.PROMPT_LOOP or cls.CHUNK_KERNEL)
        return torch_function(stash.get(source, getattr(module, source)))

    @classmethod
    def routed(cls, module: Any, name: str, stash: dict[str, Any]) -> Any:
        """The pure-torch function kernel name `name` is bound to by `route_kernels(..., "torch")`."""
        if name == base_name(cls.CHUNK_KERNEL):
            return cls.prompt_loop(module)
        return torch_function(stash[name])

    def decodes(self, args: tuple, kwargs: dict) -> bool:
        """Whether a call with these arguments continues a cached state with one token (the decode kernel)."""
        hidden = args[0] if args else kwargs.get("hidden_states")
        cache = next((kwargs[name] for name in CACHE_ARGUMENTS if kwargs.get(name) is not None), None)
        if cache is None or hidden is None or hidden.shape[1] != 1:
            return False
        layer = getattr(self._module, "layer_idx", None)
        has_state = getattr(cache, "has_previous_state", None)
        if has_state is None:
            return False
        return bool(has_state(layer) if layer is not None else has_state())

    @staticmethod
    def KERNEL(envoy: Any) -> str:
        """The label of the kernel this call runs, decided once per call from the module's arguments.

        The read of the arguments is the call's first, pinned read: on step k of a
        `tracer.iter` it is served at the mixer's k-th call. Outside a trace it is the
        prompt's kernel, the one a plain run takes.
        """
        cls = type(envoy)
        if not interleaving(envoy):
            return cls.CHUNK_KERNEL

        def choose() -> str:
            args, kwargs = _arguments_of(envoy)
            return cls.RECURRENT_KERNEL if envoy.decodes(args, kwargs) else cls.CHUNK_KERNEL

        return per_call(envoy, "kernel", choose)

    def _kernel_inputs(self) -> tuple[tuple, dict]:
        """This call's kernel arguments `(args, kwargs)`, read at the kernel call."""
        return Mediator.value(f"{getattr(self.source, type(self).KERNEL(self)).path}.input")

    def _arguments(self) -> dict[str, int | str]:
        cls = type(self)
        return cls.RECURRENT_ARGUMENTS if self._decoding() else cls.CHUNK_ARGUMENTS

    def argument(self, inputs: tuple[tuple, dict], name: str) -> Any:
        """Kernel argument `name` of this call's `(args, kwargs)`, by the kernel's argument table."""
        args, kwargs = inputs
        where = self._arguments()[name]
        if isinstance(where, str):
            return kwargs.get(where)
        return args[where] if where < len(args) else kwargs.get(name)

    def with_argument(self, inputs: tuple[tuple, dict], name: str, value: Any) -> tuple[tuple, dict]:
        """`inputs` with kernel argument `name` replaced by `value`."""
        args, kwargs = inputs
        where = self._arguments()[name]
        if isinstance(where, str) or where >= len(args):
            return args, {**kwargs, (where if isinstance(where, str) else name): value}
        return (*args[:where], value, *args[where + 1 :]), kwargs

    def _state_output_key(self) -> str:
        """Where `state_output` is read: the prompt kernel's second result, the decode kernel's new-state binding."""
        label = type(self).KERNEL(self)
        if label == type(self).RECURRENT_KERNEL and self.STEP_OUTPUT_OP is not None:
            return f"{body_path(self, label)}.{self.STEP_OUTPUT_OP}.output"
        return f"source.{label}.output"

    def _decoding(self) -> bool:
        """Whether this call runs the decode kernel."""
        cls = type(self)
        return cls.KERNEL(self) == cls.RECURRENT_KERNEL and cls.RECURRENT_KERNEL != cls.CHUNK_KERNEL

    # -- the state per token ----------------------------------------------------------

    def no_token_state(self) -> str:
        """The reason `state` and `states` are missing on a mixer whose kernels bind no state per token."""
        return "this mixer's kernels never hold the state after each token"

    def _state_op(self, label: str) -> str:
        """The per-token state binding under kernel `label`."""
        cls = type(self)
        if label == cls.RECURRENT_KERNEL and cls.STEP_STATE_OP is not None:
            return cls.STEP_STATE_OP
        return cls.STATE_OP

    def _seq(self, args: tuple, kwargs: dict) -> int:
        """The call's length, off the kernel's arguments (axis 1 of the first)."""
        return args[0].shape[1]

    def _token_state_op(self) -> str:
        """The key of `state`: the per-token state binding under the kernel this call runs."""
        cls = type(self)
        if not interleaving(self):
            return f"{body_path(self, cls.CHUNK_KERNEL)}.{cls.STATE_OP}.output"
        with pinned(None):
            label = cls.KERNEL(self)
            path = f"{body_path(self, label)}.{self._state_op(label)}"
            walk(self, path)  # the drills happen here, relaxed
        return f"{path}.output"

    def _token_op(self) -> tuple[str, int, int]:
        """(the per-token state location, the occurrence its first token is, the call's length), once per call."""
        cls = type(self)
        label = cls.KERNEL(self)

        def compute() -> tuple[str, int, int]:
            self._refuse_past_kernel()
            with pinned(None):
                call = getattr(self.source, label)
                args, kwargs = Mediator.value(f"{call.path}.input")
                op = walk(self, f"{body_path(self, label)}.{self._state_op(label)}")
                location = f"{op.path}.output"
                first = _mediator(self).occurrence(location)
            return location, first, self._seq(args, kwargs)

        return per_call(self, "call", compute)

    def _refuse_past_kernel(self) -> None:
        """Refuse a first per-token state read of a call once the run has passed its kernel's start.

        Every call of the mixer runs one kernel. A visit is counted once it has been
        served, so within call `c` (counted from zero) the kernels' entries have been
        passed `c` times while the run is still before or at this call's (a read of its
        inputs), and `c + 1` times once its loop has run (a read of `state_output` holds
        the run at the kernel's return).
        """
        mediator = _mediator(self)
        entered = sum(
            mediator.occurrence(f"{getattr(self.source, label).path}.input")
            for label in set(type(self).kernel_labels())
        )
        if entered > call_index(self):
            raise OutOfOrderError(
                f"{standard_path(self)}: the state per token (states, state, state_after, set_state_after) is read "
                "inside the kernel's loop, which this call has already run: read it before the values that follow the "
                "kernel (state_output, attention_head_outputs, attention_output) in the trace, or in a trace of its "
                f"own{native_note(self)}"
            )

    def state_after(self, t: int) -> Any:
        """The state after token `t` of this call (counted from the call's first token).

        The state after token `t` is what token `t`'s own output reads. Reads of `states`,
        `state_after` and `set_state_after` share one record per call, so they combine in
        any order within a trace, except a write to a token the reads have passed.
        """
        self._check_state("states")
        return self._token_state(t)

    def set_state_after(self, t: int, value: Any) -> None:
        """Replace the state after token `t` of this call: token `t`'s output and every later token read `value`."""
        self._check_state("set_state_after")
        self._token_state(t, value)

    def _check_state(self, name: str) -> None:
        values = type(self).values()
        descriptor = values.get(name) or values["states"]
        descriptor._check(self)

    def _states(self) -> Any:
        _, _, seq = self._token_op()
        return torch.stack([self._token_state(t) for t in range(seq)], dim=1)

    def _token_state(self, t: int, write: Any = None) -> Any:
        """The state after token `t` of this call, replaced by `write` when one is given.

        The run passes the per-token state binding once per token, so every token up to
        `t` is read on the way and kept for this call: a later read of an earlier token
        (`state_after(2)` after `states`) is answered from the record. A write can only
        reach a token the run has not passed.
        """
        location, first, seq = self._token_op()
        t = _position(t, seq)
        record = per_call(self, "tokens", lambda: {"next": 0, "read": {}})
        if t < record["next"]:
            if write is None:
                return record["read"][t]
            if t == record["next"] - 1 and record.get("last") == t:
                # The run still waits at the token just read: a read then a write of one token is served together.
                with pinned(first + t):
                    self._swap_state(location, t, record["read"][t], write)
                record["read"][t] = write
                return write
            raise OutOfOrderError(
                f"{standard_path(self)}.set_state_after({t}) comes after a read of the state after token "
                f"{record['next'] - 1} in this trace, and the run has passed token {t}: write first, then read "
                f"(set_state_after({t}, ...) before states, or before state_after(u) for any u > {t}){native_note(self)}"
            )
        for u in range(record["next"], t):
            with pinned(first + u):
                record["read"][u] = Mediator.value(location)
        with pinned(first + t):
            current = Mediator.value(location)
            if write is not None:
                self._swap_state(location, t, current, write)
                current = write
        record["read"][t] = current
        record["next"] = t + 1
        record["last"] = t
        return current

    def _swap_state(self, location: str, t: int, current: Any, write: Any) -> None:
        if isinstance(write, torch.Tensor) and isinstance(current, torch.Tensor):
            if write.shape != current.shape or write.dtype != current.dtype:
                raise ValueError(
                    f"{standard_path(self)}.set_state_after({t}){native_note(self)} takes a {current.dtype} tensor "
                    f"of shape {tuple(current.shape)}, got {write.dtype} {tuple(write.shape)}"
                )
        Mediator.swap(location, write)

    # -- the contribution ---------------------------------------------------------------

    @EProperty("output", description="What the mixer adds to the residual stream")
    def attention_output(self, value) -> Residual:
        return first_tensor(value)

    @attention_output.postprocess
    def attention_output(self, value):
        return rewrap(self, value)


def _position(t: int, seq: int) -> int:
    if not isinstance(t, int) or isinstance(t, bool):
        raise TypeError(f"a token position is an int, got {type(t).__name__}")
    if not -seq <= t < seq:
        raise IndexError(f"token {t} is outside this call's {seq} tokens")
    return t % seq


class HybridLayer(Layer):
    """A block of a hybrid, holding `self_attn` or a recurrent mixer (`linear_attn`), never both.

    Asking a block for the mixer it lacks raises `AttributeError` saying so, so
    `getattr(layer, "self_attn", None)` still picks the blocks.
    """

    MIXERS = ("self_attn", "linear_attn")

    def __init__(self, module: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(module, *args, **kwargs)
        hidden = []
        for alias, native in self.block_aliases().items():
            object.__setattr__(self, alias, getattr(self, native))
            self._aliases[alias] = native
            if native in type(self).MIXERS and native != alias:
                hidden.append(native)
        # A recurrent mixer under the native name `self_attn` (Kimi-Linear's): the block has no softmax attention.
        for native in hidden:
            self.__dict__.pop(native, None)
        self._hidden_mixers = tuple(hidden)

    def block_aliases(self) -> dict[str, str]:
        """Standard name -> native child name, bound on this block only.

        For a family whose one native child name holds a different kind of module
        on each block (Nemotron-H's `mixer`, Kimi-Linear's `self_attn`), so the
        standard name follows what this block holds; none by default (the family's
        `RENAME` names them). A native name that is the other mixer's standard name
        is then refused on this block, as a mixer the block lacks.
        """
        return {}

    def __getattr__(self, name: str) -> Any:
        if name in self.__dict__.get("_hidden_mixers", ()):
            raise AttributeError(missing_module(self, name))
        value = super().__getattr__(name)
        if value is None and name in type(self).MIXERS:  # a block that sets the mixer it lacks to None
            raise AttributeError(missing_module(self, name))
        return value
