"""The family contract: every name a family may define, its type, its default and what nnterp does with it.

A family is a module (or any object) that nnterp reads by name. `DECLARATIONS` is the
one list of those names; `validate` holds a family to it, and `nnterp.families.lookup`,
`register` and a load's `family=` call it, so a misspelt or unknown name is refused
instead of silently doing nothing.

Beyond the declared names a family module may hold:

- named parts of its maps, ``<NAME>_RENAME`` and ``<NAME>_ENVOYS``, which other
  families compose into theirs (`PARTS`);
- names starting with ``_`` (its own helpers and constants);
- classes: the envoy classes its `ENVOYS` maps to and their bases;
- names it imports (modules, components, another family's public declarations).

A family object that is not a module (a `types.SimpleNamespace`, a class) holds the
declared names and classes only.
"""

from __future__ import annotations
import __future__

import ast
import difflib
import inspect
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .components.eproperty import EProperty


class FamilyContractError(TypeError):
    """A family defines a name the contract does not declare, or a declared name of the wrong type."""


@dataclass(frozen=True)
class Declaration:
    """One name a family may define.

    `kind` groups the names: ``map`` (the two required maps), ``flag``, ``load``,
    ``class``, ``size`` (a root size), ``method`` (a root method), ``value`` (a root
    value) and ``hook`` (a function an engine calls). `engines` lists the engines that
    read it.
    """

    name: str
    kind: str
    type: str
    default: str
    doc: str
    engines: tuple[str, ...] = ("transformers", "vllm")
    required: bool = False


def _size(name: str, default: str) -> Declaration:
    return Declaration(
        name,
        "size",
        "def (model) -> int",
        default,
        f"Overrides the root size `model.{name}` where the config key does not hold it",
    )


DECLARATIONS: dict[str, Declaration] = {
    d.name: d
    for d in (
        Declaration(
            "RENAME",
            "map",
            "dict[str | type, str | list[str]]",
            "required",
            "Native module path, child name or module class to standard name, nnsight's `rename=`",
            required=True,
        ),
        Declaration(
            "ENVOYS",
            "map",
            "dict[type | str, type]",
            "required",
            "Module class (or standard name, `layers.*` for the blocks) to envoy class, nnsight's `envoys=`",
            required=True,
        ),
        Declaration(
            "ROOT_SCATTER",
            "flag",
            "bool",
            "False",
            "The image features enter at the root module's forward, not at a child's",
            engines=("transformers",),
        ),
        Declaration(
            "RootScatter",
            "class",
            "type[ImageScatter]",
            "ImageScatter",
            "The envoy class the root gets when `ROOT_SCATTER` is set",
            engines=("transformers",),
        ),
        Declaration(
            "RESENDS_IDS",
            "flag",
            "bool",
            "False",
            "Every generation step passes every token id, so the ids of a step are its whole span",
            engines=("transformers",),
        ),
        Declaration(
            "ENCODER",
            "flag",
            "bool",
            "False",
            "The family is a bidirectional encoder: it loads under its masked-LM head (`task='fill-mask'`) by default, "
            "or bare (`task='feature-extraction'`), and predicts masked positions, not a next token",
            engines=("transformers",),
        ),
        Declaration(
            "TEXT_LOAD_KWARGS",
            "load",
            "dict[str, Any]",
            "None",
            "Load arguments a default-task load from a checkpoint gets, under the caller's own",
            engines=("transformers",),
        ),
        Declaration(
            "BACKEND",
            "flag",
            "bool",
            "False",
            "The family runs on vLLM's transformers backend, whose root values are `[1, tokens, ...]`",
            engines=("vllm",),
        ),
        _size("num_layers", "len(model.layers)"),
        _size("hidden_size", "config.hidden_size"),
        _size("vocab_size", "config.vocab_size"),
        _size("num_heads", "config.num_attention_heads"),
        _size("num_kv_heads", "config.num_key_value_heads, else num_heads"),
        _size("head_dim", "config.head_dim, else hidden_size // num_heads"),
        _size("qk_head_dim", "head_dim"),
        _size("intermediate_size", "config.intermediate_size"),
        Declaration(
            "project_on_vocab",
            "method",
            "def (model, hidden) -> Tensor",
            "final norm, lm_head, the config's final softcap",
            "The logit lens: logits for a residual-stream tensor",
        ),
        Declaration(
            "token_embeddings",
            "value",
            "EProperty",
            'EProperty("embed_tokens.output")',
            "Where the root value `token_embeddings` reads, or `unavailable(reason)`",
            engines=("transformers",),
        ),
        Declaration(
            "final_norm_output",
            "value",
            "EProperty",
            'EProperty("norm.output")',
            "Where the root value `final_norm_output` reads, or `unavailable(reason)`",
            engines=("transformers",),
        ),
        Declaration(
            "lm_head_output",
            "value",
            "EProperty",
            'EProperty("lm_head.output")',
            "Where the root value `lm_head_output` reads, or `unavailable(reason)`",
            engines=("transformers",),
        ),
        Declaration(
            "collapse_streams",
            "hook",
            "def (model, hidden) -> Tensor",
            "none",
            "Collapses a residual of several streams (hyper-connections, AltUp) into the one the final norm reads",
            engines=("transformers",),
        ),
        Declaration(
            "embedding_scale",
            "hook",
            "def (model) -> float",
            "1",
            "The factor the engine applies to the embedding module's output outside it",
            engines=("vllm",),
        ),
        Declaration(
            "head_divisor",
            "hook",
            "def (model) -> float",
            "1",
            "What the engine divides the final norm's output by before the head",
            engines=("vllm",),
        ),
        Declaration(
            "check",
            "hook",
            "def (model) -> None",
            "None",
            "Raises when a loaded model cannot be standardized (the default family's guess)",
            engines=("transformers",),
        ),
    )
}


#: Named partial maps a family offers for other families to compose into their own `RENAME` and `ENVOYS`
#: (a tower's renames, a wrapper's envoys): any name ending so, of the map's type.
PARTS: dict[str, Declaration] = {
    suffix: Declaration(
        f"<NAME>{suffix}",
        "part",
        "dict",
        "none",
        f"A named part of a `{suffix[1:]}` map, which another family composes into its own",
    )
    for suffix in ("_RENAME", "_ENVOYS")
}


def _part(name: str) -> str | None:
    """The suffix of a named partial map, or `None`."""
    return next((suffix for suffix in PARTS if name.endswith(suffix) and name != suffix[1:]), None)


def _is_map(value: Any) -> bool:
    return isinstance(value, dict)


def _is_alias(value: Any) -> bool:
    """A standard name, or a list of them (nnsight binds each)."""
    return isinstance(value, str) or (isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value))


def _is_rename(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, (str, type)) and _is_alias(v) for k, v in value.items())


def _is_envoys(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, (type, str)) and isinstance(v, type) for k, v in value.items())


#: What a value of each kind must be; `RENAME` and `ENVOYS` have their own checks.
_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "RENAME": (_is_rename, "a dict of str (or module class) to a name or a list of names"),
    "ENVOYS": (_is_envoys, "a dict of module class (or str) to envoy class"),
    "flag": (lambda value: isinstance(value, bool), "a bool"),
    "load": (lambda value: value is None or _is_map(value), "a dict of load arguments"),
    "class": (lambda value: isinstance(value, type), "a class"),
    "size": (callable, "a function of the model"),
    "method": (callable, "a function of the model and a tensor"),
    "hook": (callable, "a function of the model"),
    "value": (lambda value: isinstance(value, EProperty), "an EProperty or unavailable(reason)"),
}


def names(engine: str | None = None) -> list[str]:
    """The declared names, those `engine` reads when one is given."""
    return [name for name, d in DECLARATIONS.items() if engine is None or engine in d.engines]


def _defined(module: types.ModuleType) -> list[str] | None:
    """The names a module's own top level assigns or defines, classes excepted; `None` without its source."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):
        return None
    found: list[str] = []

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    found.extend(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                for block in ("body", "orelse", "finalbody"):
                    visit(getattr(node, block, []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return found


#: The packages whose functions a family object may hold as a copy of a module's namespace holds its imports.
_LIBRARIES = ("nnterp", "nnterp_vllm", "nnsight", "torch", "transformers", "typing", "functools", "math")


def _borrowed(value: Any) -> bool:
    """Whether a family object's attribute is an import: a module, a class, a `__future__` feature, a library function.

    `types.SimpleNamespace(**vars(module))` copies a module's imports along with its
    declarations; those are not names the family defines.
    """
    if isinstance(value, (types.ModuleType, type, __future__._Feature)):
        return True
    module = getattr(value, "__module__", None) if callable(value) else None
    return isinstance(module, str) and module.split(".", 1)[0] in _LIBRARIES


def _own_names(family: Any) -> list[str]:
    """The public names `family` itself defines, classes excepted."""
    if isinstance(family, types.ModuleType):
        defined = _defined(family)
        if defined is None:
            defined = list(vars(family))
    else:
        defined = [
            name for name in dir(family) if name not in dir(type(family)) and not _borrowed(getattr(family, name, None))
        ]
    return [name for name in dict.fromkeys(defined) if not name.startswith("_") and name != "annotations"]


def _label(family: Any) -> str:
    return getattr(family, "__name__", None) or type(family).__name__


#: Families that passed, by identity and engine; the family itself is kept so its identity stays its own.
_VALID: dict[tuple[int, str], Any] = {}


def validate(family: Any, engine: str = "transformers") -> None:
    """Raise `FamilyContractError` unless `family` defines only declared names, each of its declared type.

    The message names each unknown name with the declared name it most resembles, and
    lists the valid ones. A module is checked once per process.
    """
    key = (id(family), engine)
    if _VALID.get(key) is family:
        return
    label = _label(family)
    problems = []
    for attribute in ("RENAME", "ENVOYS"):
        if not hasattr(family, attribute):
            problems.append(f"it has no {attribute}, which every family defines ({DECLARATIONS[attribute].doc})")
    valid = names(engine)
    for name in _own_names(family):
        value = getattr(family, name, None)
        declaration = DECLARATIONS.get(name)
        part = _part(name)
        if part is not None:
            check, expected = _CHECKS[part[1:]]
            if not check(value):
                problems.append(f"{name!r}, a part of {part[1:]}, must be {expected}, got {type(value).__name__}")
            continue
        if declaration is None:
            if isinstance(value, type):
                continue
            close = difflib.get_close_matches(name, names(), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(
                f"{name!r} is not a name the family contract declares{hint}; a helper of the family's own "
                f"is spelled with a leading underscore (_{name})"
            )
            continue
        if engine not in declaration.engines:
            problems.append(f"{name!r} is read only on the {', '.join(declaration.engines)} engine, not {engine}")
            continue
        check, expected = _CHECKS.get(name) or _CHECKS[declaration.kind]
        if not check(value):
            problems.append(f"{name!r} must be {expected} ({declaration.type}), got {type(value).__name__}")
    if problems:
        listed = "\n  - ".join(problems)
        raise FamilyContractError(
            f"the family {label} breaks the family contract:\n  - {listed}\n"
            f"The names a family defines on the {engine} engine are: {', '.join(valid)}, and named parts "
            f"<NAME>_RENAME and <NAME>_ENVOYS "
            "(nnterp.contract.DECLARATIONS; site/docs/developing/adding-a-family.md)."
        )
    _VALID[key] = family


__all__ = ["DECLARATIONS", "PARTS", "Declaration", "FamilyContractError", "names", "validate"]
