"""The families: one module per `model_type`, found by its file name.

`lookup(model_type)` returns, in order, what `register` put in `REGISTRY`, the module
`nnterp.families.<model_type>` imported on first use, or `default`, the best-effort
family, with a warning. A family is any module or object with `RENAME` (native name
to standard name, nnsight's `rename=`) and `ENVOYS` (module type to envoy class,
nnsight's `envoys=`), and whatever else it defines is a name `nnterp.contract`
declares: `lookup` and `register` refuse a family that breaks the contract.

A model type that is not a Python identifier is spelled with ``-`` written ``_`` in
its module's file name (``gpt-sw3`` lives in ``gpt_sw3.py``). `lookup` and
`register` take either spelling; `known()` gives transformers' own.

A vision-language wrapper is served by its own type's module where one ships
(`has_family`), else by the family of its text config's type. A wrapper module
composes its text family's public `RENAME` and `ENVOYS` (`{**llama.RENAME, ...}`) with
its tower's; a text family maps no wrapper's classes. A chain of family imports is
two long at most (wrapper, text family, the family whose classes that one shares), and
a family never imports another's private names.

Each function takes an `engine`: ``"transformers"``, the default, whose families are
this package's modules, or an engine another distribution adds through the
``nnterp.engines`` entry-point group (`ENGINE_GROUP`). Such an entry is
``<engine> = "<package>"``: the engine's family for a type is the module
``<package>.<model_type>`` (nnterp-vllm declares ``vllm = "nnterp_vllm.families"``).
nnterp imports no engine package by name, so an engine installs without nnterp
knowing of it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import pkgutil
import warnings
from collections import defaultdict
from typing import Any

from .. import contract

#: The entry-point group through which a distribution adds an engine: ``<engine> = "<package of its families>"``.
ENGINE_GROUP = "nnterp.engines"

#: The engines nnterp's own distributions provide, each with the distribution to install for it.
ENGINES = {"transformers": "nnterp", "vllm": "nnterp-vllm"}

#: Families registered with `register`, per engine: model type to family.
REGISTRY: dict[str, Any] = {}
_ENGINE_REGISTRY: defaultdict[str, dict[str, Any]] = defaultdict(dict, {"transformers": REGISTRY})


class UnsupportedFamily(ValueError):
    """No family covers the checkpoint's `model_type` and the default family cannot standardize it."""


def installed_engines() -> dict[str, str]:
    """Every engine installed here, by name, with the package its family modules live in.

    Transformers' is this package; the others are read from the ``nnterp.engines``
    entry points of the installed distributions, and none of them is imported.
    """
    engines = {"transformers": __name__}
    for entry in importlib.metadata.entry_points(group=ENGINE_GROUP):
        # The first distribution to declare a name keeps it; none replaces transformers.
        engines.setdefault(entry.name, entry.module)
    return engines


def _engine(engine: str | None) -> str:
    engine = engine or "transformers"
    installed = installed_engines()
    if engine in installed:
        return engine
    if engine in ENGINES:
        raise ValueError(
            f"the {engine} engine is not installed: pip install {ENGINES[engine]} (or 'nnterp[{engine}]'), "
            f"the distribution that declares it in the {ENGINE_GROUP!r} entry points"
        )
    raise ValueError(
        f"unknown engine {engine!r}; the installed engines are {', '.join(installed)}. A distribution adds an "
        f'engine by declaring `{engine} = "<package of its family modules>"` in the {ENGINE_GROUP!r} entry points'
    )


def _package(engine: str) -> str:
    return __name__ if engine == "transformers" else installed_engines()[engine]


def module_name(model_type: str) -> str:
    """The file name (without ``.py``) of `model_type`'s family module: ``-`` and ``.`` written ``_``.

    A Python module name holds neither: ``kosmos-2.5`` is ``kosmos_2_5``.
    """
    return model_type.replace("-", "_").replace(".", "_")


def _transformers_types() -> Any:
    # The auto mapping is a plain dict module: reading it imports no modeling code.
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

    return CONFIG_MAPPING_NAMES


def _spelling(name: str, types: Any) -> str | None:
    """Transformers' spelling of the type a module named `name` covers, or `None` when this release lacks it."""
    if name in types:
        return name
    return next((model_type for model_type in types if module_name(model_type) == name), None)


def _shipped(engine: str) -> list[str]:
    # An engine's declared package that does not import is a broken install: its error propagates.
    package = importlib.import_module(_package(engine))
    return sorted(
        info.name
        for info in pkgutil.iter_modules(package.__path__)
        if not info.ispkg and info.name != "default" and not info.name.startswith("_")
    )


def known(engine: str | None = None) -> list[str]:
    """The model types the package ships a family module for, as transformers spells them.

    Not `default`, not registered families, and not a type the installed transformers
    release does not have (its module could not import its modeling code).
    """
    engine = _engine(engine)
    if engine != "transformers":
        return _shipped(engine)
    types = _transformers_types()
    return sorted(spelling for name in _shipped(engine) if (spelling := _spelling(name, types)) is not None)


def lookup_module(model_type: str, engine: str | None = None) -> Any:
    """The shipped family module of `model_type` (either spelling), imported."""
    return importlib.import_module(f"{_package(_engine(engine))}.{module_name(model_type)}")


def has_family(model_type: str, engine: str | None = None) -> bool:
    """Whether `model_type` has a family of its own, registered or shipped (not `default`); imports nothing."""
    engine = _engine(engine)
    name = module_name(model_type)
    if name in _ENGINE_REGISTRY[engine]:
        return True
    if name == "default" or name.startswith("_"):
        return False
    try:
        return importlib.util.find_spec(f"{_package(engine)}.{name}") is not None
    except ModuleNotFoundError:
        return False


def all_families(engine: str | None = None) -> dict[str, Any]:
    """Every shipped family the installed release can load, imported: model type to module."""
    return {model_type: lookup_module(model_type, engine) for model_type in known(engine)}


def lookup(model_type: str, engine: str | None = None) -> Any:
    """The family for `model_type`: registered, else shipped, else `default` with a warning.

    On an engine other than transformers there is no default, and a type without a
    family raises `UnsupportedFamily`.
    """
    engine = _engine(engine)
    registry = _ENGINE_REGISTRY[engine]
    if module_name(model_type) in registry:
        return registry[module_name(model_type)]
    name = f"{_package(engine)}.{module_name(model_type)}"
    try:
        family = importlib.import_module(name)
    except ModuleNotFoundError as error:
        # Only the family module itself being absent means "no family"; an import
        # error from inside a family module is that module's bug and propagates.
        if error.name not in (name, _package(engine)):
            raise
    else:
        contract.validate(family, engine)
        return family
    if engine != "transformers":
        if engine == "vllm" and _is_encoder_type(model_type):
            raise UnsupportedFamily(
                f"no standardization for model_type {model_type!r} on vllm: it is an encoder, which vLLM runs as a "
                "pooling model (embeddings, classification) with no sampling step, and nnsight's vLLM engine drives "
                "generation only; load it with StandardizedTransformer, which serves its masked-LM head"
            )
        raise UnsupportedFamily(f"no standardization for model_type {model_type!r} on {engine}; known: {known(engine)}")
    warnings.warn(
        f"nnterp has no family for model_type {model_type!r}; the default family standardizes it as a "
        "best-effort guess. Check model.support() for what it found, and add "
        f"nnterp/families/{module_name(model_type)}.py (or nnterp.families.register(family, {model_type!r})) "
        "for a standardization you can rely on (site/docs/developing/adding-a-family.md).",
        UserWarning,
        stacklevel=3,
    )
    from . import default

    return default


def register(family: Any, *model_types: str, engine: str | None = None) -> Any:
    """Make `family` the one every later load of `model_types` resolves to, in this process.

    Without types, the type is the last component of the family's `__name__`, as a
    shipped module's file name gives it. Overrides a shipped or registered family.
    Returns the family.
    """
    for attribute in ("RENAME", "ENVOYS"):
        if not hasattr(family, attribute):
            raise TypeError(f"register() takes a family with RENAME and ENVOYS; {family!r} has no {attribute}")
    contract.validate(family, _engine(engine))
    if not model_types:
        name = getattr(family, "__name__", None)
        if not isinstance(name, str):
            kind = type(family).__name__
            raise TypeError(
                f"register() needs the model types the family covers: a {kind} has no __name__ to take one from"
            )
        model_types = (name.rsplit(".", 1)[-1],)
    registry = _ENGINE_REGISTRY[_engine(engine)]
    for model_type in model_types:
        registry[module_name(model_type)] = family
    return family


def __getattr__(name: str) -> Any:
    # `nnterp.families.gpt2` imports the family module on first access.
    if name.startswith("_"):
        raise AttributeError(name)
    try:
        return importlib.import_module(f"{__name__}.{module_name(name)}")
    except ModuleNotFoundError as error:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from error


__all__ = [
    "ENGINES",
    "ENGINE_GROUP",
    "REGISTRY",
    "UnsupportedFamily",
    "all_families",
    "installed_engines",
    "known",
    "lookup",
    "lookup_module",
    "module_name",
    "register",
]


def _is_encoder_type(model_type: str) -> bool:
    """Whether the transformers engine's family for `model_type` declares itself an encoder."""
    return has_family(model_type) and bool(getattr(lookup(model_type), "ENCODER", False))
