"""`IndexView`: a served value of indices that refuses an in-place write of a non-integer at the write.

torch casts what an in-place write stores into an integer tensor: `ids[:] = 1.5`
stores 1 and `ids.fill_(True)` stores 1, so no check made afterwards can tell the
write was not an integer. A value of an index layout (`expert_indices`) is served as
an `IndexView` of the model's tensor, whose in-place writes are checked before torch
casts them. Views cut from it (`ids[:, :, 0]`) are `IndexView`s too; every other
result of an operation on it is a plain tensor. `release` makes them plain tensors
again once the model has taken the value, when no write can reach the model anymore.
A write through memory outside torch (`ids.numpy()[:] = 1.5`) is not seen, and
numpy truncates it as torch would.
"""

from __future__ import annotations

import numbers
import weakref
from typing import Any

import torch

#: Which positional argument an in-place write stores, by the name of its function.
_STORED = {
    "__setitem__": 2,
    "fill_": 1,
    "copy_": 1,
    "masked_fill_": 2,
    "index_fill_": 3,
    "index_put_": 2,
    "index_copy_": 3,
    "scatter_": 3,
    "masked_scatter_": 2,
    "put_": 2,
}
#: The keyword an in-place write's stored value may come under instead.
_STORED_KEYWORDS = ("value", "src", "values", "source")


class IndexView(torch.Tensor):
    """An integer tensor of indices that refuses an in-place write of a float, complex or bool value.

    `_label` names the value in the message and `_expected` says which ids it takes;
    `_views` holds every `IndexView` cut from the same served value, for `release`.
    """

    _label: str
    _expected: str
    _views: list

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        target = args[0] if args else None
        guarded = isinstance(target, IndexView) and getattr(func, "__name__", "") != "as_subclass"
        if guarded:
            _refuse_non_integer(target, func, args, kwargs)
        with torch._C.DisableTorchFunctionSubclass():
            result = func(*args, **kwargs)
        if guarded and _is_view_of(result, target):
            result = _view(result, target)
        return result

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        # Printed as the plain tensor it stands for, not under the class's name.
        return repr(self.as_subclass(torch.Tensor))


def guard(value: torch.Tensor, label: str, expected: str) -> torch.Tensor:
    """`value` served as an `IndexView` of the same memory, refusing in-place writes of non-integers.

    Only an integer tensor with real memory is guarded; anything else comes back as given.
    """
    if value.is_floating_point() or value.is_complex() or value.dtype == torch.bool or value.is_meta:
        return value
    if type(value) is not torch.Tensor:  # a fake or otherwise wrapped tensor keeps its own class
        return value
    view = value.as_subclass(IndexView)
    view._label = label
    view._expected = expected
    view._views = [weakref.ref(view)]
    return view


def release(value: Any) -> None:
    """Make `value` and every view cut from it plain tensors again; anything else is left as it is."""
    if not isinstance(value, IndexView):
        return
    for reference in list(value._views):
        view = reference()
        if view is not None:
            view.__class__ = torch.Tensor
            # A plain tensor pickles its attributes, and a weak reference does not pickle.
            for name in ("_label", "_expected", "_views"):
                view.__dict__.pop(name, None)


def _is_view_of(result: Any, target: IndexView) -> bool:
    """Whether `result` is a new integer tensor over `target`'s memory, which a write through reaches."""
    if not isinstance(result, torch.Tensor) or result is target or type(result) is not torch.Tensor:
        return False
    if result.is_floating_point() or result.is_complex() or result.dtype == torch.bool:
        return False
    return result.untyped_storage().data_ptr() == target.untyped_storage().data_ptr()


def _view(result: torch.Tensor, target: IndexView) -> IndexView:
    view = result.as_subclass(IndexView)
    view._label = target._label
    view._expected = target._expected
    view._views = target._views
    view._views.append(weakref.ref(view))
    return view


def _refuse_non_integer(target: IndexView, func: Any, args: tuple, kwargs: dict) -> None:
    position = _STORED.get(getattr(func, "__name__", ""))
    if position is None:
        return
    if len(args) > position:
        stored = args[position]
    else:
        stored = next((kwargs[key] for key in _STORED_KEYWORDS if key in kwargs), None)
    what = _non_integer(stored)
    if what is not None:
        raise ValueError(
            f"{target._label} holds integer ids and was edited in place with {what}, which torch silently truncates "
            f"to an integer; write {target._expected}, e.g. `[...] = 2`"
        )


def _non_integer(stored: Any) -> str | None:
    """How a stored value that is not an integer is named in the message, or `None` for integers."""
    if stored is None:
        return None
    if isinstance(stored, torch.Tensor):
        dtype = stored.dtype
        named = f"a {dtype} tensor"
    elif isinstance(stored, bool):
        return f"the bool {stored}"
    elif isinstance(stored, numbers.Integral):
        return None
    else:
        try:
            dtype = torch.as_tensor(stored).dtype
        except (TypeError, ValueError, RuntimeError):
            return None
        named = repr(stored)
    if dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        return named
    return None


__all__ = ["IndexView", "guard", "release"]
