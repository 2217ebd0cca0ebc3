"""The encyclopedia: one page per shipped family, read off the family module and its pinned checkpoint.

`extract(model_type)` returns plain, JSON-ready data: from the module, its docstring,
`RENAME`, `ENVOYS`, the values its envoy classes declare unavailable and the root
sizes or methods it replaces; from the pinned tiny checkpoint (loaded on the CPU with
the eager attention, and once more as a default load), the sizes, every block's
children in forward order with their standard and native names, every value with its
layout and where it is read, `support()` on both loads, `model.order(i)` and the block
kinds where blocks differ. `render(data)` writes the page: Markdown tables for the
reader without JavaScript (and for search and `llms.txt`), and the same data embedded
for `javascripts/encyclopedia.js`, which draws the block (hover a part for its nnterp
name, click to pin its card, a slider to pick the block where blocks differ).

Nothing here knows a family by name. A family it cannot read still gets a page, which
says what failed; `site/tests/test_encyclopedia.py` fails on such a page.
"""

from __future__ import annotations

import hashlib
import html
import importlib.metadata
import inspect
import json
import math
import os
import re
import traceback
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module

REPO = Path(__file__).resolve().parents[2]
#: Where the pages live in the docs tree.
SECTION = "encyclopedia"
#: The prompt of the probe run that orders a block's parts.
PROBE_PROMPT = "The Eiffel Tower is in"
#: The root sizes every page lists.
SIZES = ("num_layers", "hidden_size", "vocab_size", "num_heads", "num_kv_heads", "head_dim", "qk_head_dim", "intermediate_size")
#: Children that go by one of several aliases take the first of these they have.
PREFERRED = ("self_attn", "linear_attn", "mlp")
#: Bump when the data's shape changes, so a page built by an older generator reads as stale.
SCHEMA = 1


def checkpoints_dir() -> Path:
    """The tiny checkpoints: `$NNTERP_TINY_CHECKPOINTS`, else the repository's `tiny_checkpoints/`."""
    override = os.environ.get("NNTERP_TINY_CHECKPOINTS")
    return Path(override) if override else REPO / "tiny_checkpoints"


def families() -> list[str]:
    """The model types that get a page: every shipped family the installed transformers can load."""
    from nnterp.families import known

    return known()


def slug(model_type: str) -> str:
    """The page's file name (without `.md`): the family module's name."""
    from nnterp.families import module_name

    return module_name(model_type)


def pinned_checkpoint(model_type: str) -> Path | None:
    """The tiny checkpoint of `model_type`: the one named after its module, else any whose config has the type."""
    root = checkpoints_dir()
    own = root / slug(model_type)
    if (own / "config.json").is_file():
        return own
    if not root.is_dir():
        return None
    for folder in sorted(root.iterdir()):
        config = folder / "config.json"
        if folder.name == "demo" or not config.is_file():
            continue
        try:
            data = json.loads(config.read_text())
        except ValueError:
            continue
        types = {data.get("model_type"), (data.get("text_config") or {}).get("model_type")}
        if model_type in types:
            return folder
    return None


@cache
def _code_digest() -> str:
    """What every page is read with: nnterp's source, this generator's, and the installed stack's versions."""
    import nnterp

    digest = hashlib.sha256()
    for path in sorted(Path(nnterp.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    digest.update(Path(__file__).read_bytes())
    for distribution in ("transformers", "nnsight", "torch"):
        digest.update(f"{distribution}=={importlib.metadata.version(distribution)}".encode())
    return digest.hexdigest()


def fingerprint(model_type: str) -> str:
    """What `model_type`'s page depends on, hashed: the code it is read with and its pinned checkpoint's files.

    A page embeds the fingerprint it was built from, so a built page is current exactly
    when its fingerprint equals a fresh one, with no second read of the family.
    """
    digest = hashlib.sha256(f"{SCHEMA}:{model_type}:{_code_digest()}".encode())
    checkpoint = pinned_checkpoint(model_type)
    for path in sorted(checkpoint.iterdir()) if checkpoint is not None else ():
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


# -- the family module -----------------------------------------------------------------


def _doc(obj: Any) -> str:
    return inspect.cleandoc(obj.__doc__) if obj.__doc__ else ""


def _title(module: Any, model_type: str) -> tuple[str, str]:
    """The page title (the docstring's first line up to its first parenthesis or colon) and the summary line."""
    first = _doc(module).split("\n", 1)[0].strip()
    if not first:
        return model_type, ""
    title = re.split(r" \(|: ", first, maxsplit=1)[0].strip().rstrip(".") or model_type
    return title, first


#: A line of a docstring that states a block in standard names: `h = x + self_attn(...)`.
FORMULA = re.compile(r"`?\s*([A-Za-z_]\w*\s*=\s*[^`]*\w\([^`]*\))\s*`?")


def _formulas(doc: str) -> list[str]:
    """The block formulas the docstring states (`name = ... module(...)`), each split at `;`."""
    found: list[str] = []
    for span in re.findall(r"`([^`]+)`", doc):
        for part in span.split(";"):
            part = part.strip()
            if re.match(r"^[A-Za-z_]\w*\s*=\s*.*\w\(", part) and "+" in part:
                found.append(part)
    return found


def _class_name(obj: Any) -> str:
    return obj if isinstance(obj, str) else getattr(obj, "__name__", repr(obj))


def _qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def module_facts(module: Any) -> dict[str, Any]:
    """What the family module itself says: docstring, `RENAME`, `ENVOYS`, markers, replaced root attributes."""
    from nnterp.components import EProperty, LogitLens

    doc = _doc(module)
    envoys = []
    markers = []
    redefined = []
    seen: set[int] = set()
    for target, envoy in getattr(module, "ENVOYS", {}).items():
        bases = [_qualified(base) for base in envoy.__mro__[1:] if base.__module__.startswith("nnterp.components")]
        envoys.append(
            {
                "module_class": _class_name(target),
                "envoy": _qualified(envoy) if isinstance(envoy, type) else repr(envoy),
                "base": bases[0] if bases else "",
                "doc": _doc(envoy) if isinstance(envoy, type) else "",
            }
        )
        if not isinstance(envoy, type) or id(envoy) in seen:
            continue
        seen.add(id(envoy))
        for klass in envoy.__mro__:
            if not klass.__module__.startswith(("nnterp.families", "nnterp.components")) or klass.__name__ in ("Standard",):
                continue
            for name, attr in vars(klass).items():
                if not isinstance(attr, EProperty):
                    continue
                if attr.is_marker():
                    entry = {"envoy": envoy.__name__, "value": name, "reason": attr.unavailable, "declared_in": _qualified(klass)}
                    if klass is envoy or klass.__module__ != "nnterp.components.eproperty":
                        if entry not in markers and not any(m["envoy"] == envoy.__name__ and m["value"] == name for m in markers):
                            markers.append(entry)
                elif klass is envoy:
                    redefined.append({"envoy": envoy.__name__, "value": name, "description": attr.description or ""})
    functions = [
        {"name": name, "doc": _doc(obj)}
        for name, obj in vars(module).items()
        if (inspect.isfunction(obj) or isinstance(obj, LogitLens))
        and obj.__module__ == module.__name__
        and not name.startswith("_")
    ]
    constants = [
        {"name": name, "value": value}
        for name, value in vars(module).items()
        if name.isupper() and name not in ("RENAME", "ENVOYS") and isinstance(value, (str, int, float, bool))
    ]
    return {
        "module": module.__name__,
        "doc": doc,
        "formulas": _formulas(doc),
        "rename": [[native, standard] for native, standard in getattr(module, "RENAME", {}).items()],
        "envoys": envoys,
        "markers": markers,
        "redefined": redefined,
        "functions": functions,
        "constants": constants,
    }


# -- the loaded checkpoint ---------------------------------------------------------------


def _load(path: Path, **kwargs: Any) -> Any:
    from nnterp import StandardizedTransformer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return StandardizedTransformer(str(path), device="cpu", **kwargs)


def _aliases_of(parent: Any, name: str) -> list[str]:
    return [alias for alias, path in getattr(parent, "_aliases", {}).items() if path == name]


def _standard(parent: Any, name: str) -> str:
    aliases = _aliases_of(parent, name)
    for preferred in PREFERRED:
        if preferred in aliases:
            return preferred
    return aliases[0] if aliases else name


def _values_of(envoy: Any) -> dict[str, Any]:
    """The standard values of an envoy's class, name to descriptor (bases first), `{}` for a plain envoy."""
    from nnterp.components import EProperty

    found: dict[str, Any] = {}
    for klass in reversed(type(envoy).__mro__):
        for name, attr in vars(klass).items():
            if isinstance(attr, EProperty):
                found[name] = attr
            elif name in found:
                del found[name]
    return {name: getattr(type(envoy), name) for name in found}


def _select(attr: Any, host: Any) -> Any:
    try:
        return attr._select(host)
    except Exception:  # a select that needs a run says nothing here
        return None


def _key(attr: Any, host: Any) -> str | None:
    try:
        return attr._key(host)
    except Exception:  # a key function that cannot run on this checkpoint
        return None


def _split_key(key: str) -> tuple[str, int, list[str], list[str], str]:
    """(anchor kind, levels up, module segments, operation segments, last segment) of a path key."""
    anchor = "host"
    if key.startswith("/"):
        anchor, key = "root", key[1:]
    ups = 0
    while key.startswith("../"):
        ups, key = ups + 1, key[3:]
    *segments, last = key.split(".")
    modules, ops = segments, []
    if "source" in segments:
        cut = segments.index("source")
        modules, ops = segments[:cut], [s for s in segments[cut:] if s != "source"]
    return anchor, ups, modules, ops, last


def read_at(key: str | None, select: Any, kind: str) -> str:
    """Where a value is read, in words."""
    if kind == "marker":
        return "nowhere: the family does not serve it"
    if kind == "derived":
        return "computed from other values when read"
    if key is None:
        return "a path the family computes from the checkpoint"
    anchor, ups, modules, ops, last = _split_key(key)
    word = {"inputs": "arguments", "input": "input", "output": "output"}.get(last, last)
    if select is not None:
        if last == "inputs":
            element = f", argument {select}" if isinstance(select, int) else f", keyword {select}"
        else:
            element = f", element {select}"
    else:
        element = ""
    module = ".".join(modules)
    if anchor == "root":
        owner = f"the root's module {module}" if module else "the root"
    elif ups == 1:
        owner = f"the sibling module {module}"
    elif ups > 1:
        owner = f"the module {module}, {ups} levels up"
    elif module:
        owner = f"the child module {module}"
    else:
        owner = "the module"
    if ops:
        inside = "".join(f" inside {call}" for call in reversed(ops[:-1]))
        where = "the forward" if owner == "the module" else f"{owner}'s forward"
        return f"inside {where}: the {word} of {ops[-1]}{inside}{element}"
    if owner == "the module":
        return f"the module's own {word}{element}"
    return f"{owner}'s {word}{element}"


def _anchor(host_rel: list[str], key: str | None, kind: str) -> tuple[str, str]:
    """The part a value is drawn at (a path relative to the drawing's top) and the side: input, output or inside."""
    if kind != "served" or key is None:
        return ".".join(host_rel), "inside"
    anchor, ups, modules, ops, last = _split_key(key)
    if anchor == "root":
        return "/" + ".".join(modules), "inside" if ops else ("output" if last == "output" else "input")
    base = host_rel[: len(host_rel) - ups] if ups else list(host_rel)
    side = "inside" if ops else ("output" if last == "output" else "input")
    return ".".join([*base, *modules]), side


def _value_row(name: str, host: Any, attr: Any, host_rel: list[str]) -> dict[str, Any]:
    from nnterp.components import DerivedEProperty, layout_name

    kind = "marker" if attr.is_marker() else ("derived" if isinstance(attr, DerivedEProperty) else "served")
    reason = attr.reason(host)
    key = _key(attr, host) if kind == "served" and reason is None else (attr.key if isinstance(attr.key, str) else None)
    select = _select(attr, host) if kind == "served" else None
    layout = attr.layout
    where, side = _anchor(host_rel, key, kind)
    return {
        "name": name,
        "value": name.rsplit(".", 1)[-1],
        "host": ".".join(host_rel),
        "kind": kind,
        "layout": layout_name(layout) if layout is not None else "",
        "dims": list(attr.dims) if attr.dims else [],
        "description": attr.description or "",
        "key": key if isinstance(key, str) else "",
        "select": select if isinstance(select, (int, str)) else None,
        "read_at": read_at(key, select, kind),
        "part": where,
        "side": side,
        "reason": reason,
    }


def _walk(envoy: Any, rel: list[str], skip: set[int], only_first: bool = True) -> Iterator[tuple[list[str], Any, str]]:
    """(path relative to the start, envoy, native name) for `envoy`'s subtree, standard names first, each envoy once."""
    for name, child in envoy._named_children():
        if id(child) in skip:
            continue
        skip.add(id(child))
        standard = _standard(envoy, name)
        if name.isdigit():
            if only_first and name != "0":
                continue
            path = [*rel[:-1], f"{rel[-1]}[i]"] if rel else [f"[{name}]"]
        else:
            path = [*rel, standard]
        yield path, child, name
        yield from _walk(child, path, skip, only_first)


def _visits(model: Any) -> dict[str, int]:
    """Every location one probe run passes, with the rank of its first visit."""
    interleaver = model.interleaver
    seen: dict[str, int] = {}
    original = interleaver.handle

    def recording(provider: str, value: Any) -> Any:
        seen.setdefault(provider, len(seen))
        return original(provider, value)

    interleaver.handle = recording
    from nnterp.order import _probe_inputs

    # The probe `order()` runs: with a small image where the load has a processor and an image reaches the model.
    prompt, inputs = _probe_inputs(model, PROBE_PROMPT)
    try:
        with model.trace(prompt, **inputs):
            model.output  # noqa: B018 - a request, so the run has a worker
    finally:
        del interleaver.handle
    return seen


def _first_visit(visits: dict[str, int], path: str) -> int | None:
    ranks = [rank for location, rank in visits.items() if location.startswith(path + ".")]
    return min(ranks) if ranks else None


def _part(envoy: Any, rel: list[str], native: str, visits: dict[str, int]) -> dict[str, Any]:
    module = envoy._module
    return {
        "path": ".".join(rel),
        "name": rel[-1] if rel else "",
        "native": native,
        "native_path": envoy.path,
        "class": type(module).__name__,
        "envoy": _qualified(type(envoy)) if type(envoy).__module__.startswith("nnterp") else "",
        "aliases": _aliases_of(envoy.parent, native) if envoy.parent is not None else [],
        "visit": _first_visit(visits, envoy.path),
        "depth": len(rel),
    }


def _block(model: Any, default: Any, index: int, visits: dict[str, int]) -> dict[str, Any]:
    block = model.layers[index]
    other = default.layers[index] if default is not None else None
    parts = [_part(block, [], str(index), visits)]
    values = []
    hosts = [([], block, other)]
    skip = {id(block)}
    for rel, child, native in _walk(block, [], skip, only_first=False):
        parts.append(_part(child, rel, native, visits))
        twin = None
        if other is not None:
            try:
                twin = other
                for piece in rel:
                    twin = getattr(twin, piece)
            except AttributeError:
                twin = None
        hosts.append((rel, child, twin))
    for rel, host, twin in hosts:
        for name, attr in _values_of(host).items():
            row = _value_row(".".join([*rel, name]), host, attr, rel)
            row["default_reason"] = attr.reason(twin) if twin is not None else row["reason"]
            values.append(row)
    try:
        order = model.order(index)
        order_error = None
    except Exception as error:  # order() failing is reported on the page, not fatal
        order, order_error = {}, f"{type(error).__name__}: {error}"
    for row in values:
        row["rank"] = order.get(row["name"])
    parts.sort(key=lambda part: (part["depth"] == 0, part["visit"] is None, part["visit"] or 0))
    parts.sort(key=lambda part: part["depth"] != 0)
    config = _text_config(model)
    per_block = {}
    for name, setting in sorted(vars(config).items()):
        if isinstance(setting, (list, tuple)) and len(setting) == len(model.layers) and not name.startswith("_"):
            item = setting[index]
            if isinstance(item, (str, int, float, bool)) or item is None:
                per_block[name] = item
    return {
        "index": index,
        "class": type(block._module).__name__,
        "envoy": _qualified(type(block)),
        "parts": parts,
        "values": values,
        "order": order,
        "order_error": order_error,
        "config": per_block,
        "printout": repr(block),
    }


def _signature(block: dict[str, Any]) -> str:
    shape = [(part["path"], part["class"]) for part in block["parts"] if part["depth"]]
    rows = [(row["name"], row["kind"], row["reason"], row["default_reason"], row["layout"], row["part"]) for row in block["values"]]
    return json.dumps([shape, rows, block["order"], block["config"]], sort_keys=True, default=str)


def _kinds(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Blocks grouped by what they are: modules, values, availability, read order and per-block settings."""
    groups: dict[str, list[int]] = {}
    for block in blocks:
        groups.setdefault(_signature(block), []).append(block["index"])
    kinds = []
    for indices in groups.values():
        first = blocks[indices[0]]
        label = ", ".join(f"{name} {value}" for name, value in first["config"].items()) or first["class"]
        kinds.append({"blocks": indices, "label": label})
    return kinds


def _text_config(model: Any) -> Any:
    config = model.config
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def _root(model: Any, default: Any, visits: dict[str, int]) -> dict[str, Any]:
    from nnterp.components import EProperty

    layers = model.layers
    parts = []
    values = []
    for name, attr in _root_eproperties(type(model)).items():
        if isinstance(attr, EProperty):
            row = _value_row(name, model, attr, [])
            row["default_reason"] = attr.reason(default) if default is not None else row["reason"]
            values.append(row)
    skip = {id(model), id(layers)}
    for part_name in ("embed_tokens", "layers", "norm", "lm_head"):
        envoy = getattr(model, part_name, None)
        if envoy is None:
            continue
        native = model._aliases.get(part_name, part_name)
        part = _part(envoy, [part_name], native, visits)
        part["count"] = len(layers) if part_name == "layers" else None
        parts.append(part)
    # Every other envoy that carries values (a vision tower, a projector) is a host of its own.
    for alias in list(model._aliases):
        envoy = getattr(model, alias, None)
        if envoy is None or id(envoy) in skip or alias in ("embed_tokens", "norm", "layers"):
            continue
        skip.add(id(envoy))
        _add_host(envoy, [alias], model._aliases[alias], values, visits, parts, default)
        for rel, child, native in _walk(envoy, [alias], skip):
            _add_host(child, rel, native, values, visits, parts, default)
    for rel, child, native in _walk(model, [], skip):
        if rel and rel[0] == "model" and len(rel) == 1:
            continue
        _add_host(child, rel, native, values, visits, parts, default)
    parts.sort(key=lambda part: (part["visit"] is None, part["visit"] or 0))
    return {"class": type(model._module).__name__, "parts": parts, "values": values}


def _add_host(envoy: Any, rel: list[str], native: str, values: list, visits: dict, parts: list, default: Any) -> None:
    own = _values_of(envoy)
    if not own:
        return
    if not any(part["path"] == ".".join(rel) for part in parts):
        part = _part(envoy, rel, native, visits)
        part["count"] = None
        parts.append(part)
    twin = default
    try:
        for piece in rel:
            twin = getattr(twin, piece.replace("[i]", ""))
            if piece.endswith("[i]"):
                twin = twin[0]
    except (AttributeError, IndexError, TypeError):
        twin = None
    for name, attr in own.items():
        row = _value_row(".".join([*rel, name]), envoy, attr, rel)
        row["default_reason"] = attr.reason(twin) if twin is not None else row["reason"]
        values.append(row)


def _root_eproperties(cls: type) -> dict[str, Any]:
    from nnterp.components import EProperty

    found: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        for name, attr in vars(klass).items():
            if isinstance(attr, EProperty):
                found[name] = attr
    return found


def _sizes(model: Any, module: Any) -> list[dict[str, Any]]:
    rows = []
    for name in SIZES:
        try:
            value = getattr(model, name)
        except Exception as error:  # a size the config does not spell shows its error
            value = f"{type(error).__name__}: {error}"
        own = getattr(module, name, None)
        rows.append({"name": name, "value": value, "rule": "the family's own" if callable(own) else "the default rule"})
    return rows


def _support_rows(model: Any, default: Any) -> list[dict[str, Any]]:
    eager = model.support()
    plain = default.support() if default is not None else eager
    names = list(dict.fromkeys([*plain, *eager]))
    return [{"name": name, "default": _jsonable(plain.get(name, "absent")), "eager": _jsonable(eager.get(name, "absent"))} for name in names]


def _jsonable(reason: Any) -> Any:
    if isinstance(reason, dict):
        return {str(layer): text for layer, text in reason.items()}
    return reason


def _config(path: Path) -> dict[str, Any]:
    try:
        return json.loads((path / "config.json").read_text())
    except (OSError, ValueError):
        return {}


def _manifest(path: Path) -> dict[str, Any]:
    try:
        return json.loads((path / "manifest.json").read_text())
    except (OSError, ValueError):
        return {}


def _tags(data: dict[str, Any]) -> list[str]:
    """Short labels for what is particular to the family, read off the data."""
    tags = []
    sizes = {row["name"]: row["value"] for row in data.get("sizes", [])}
    if isinstance(sizes.get("num_kv_heads"), int) and isinstance(sizes.get("num_heads"), int):
        if sizes["num_kv_heads"] < sizes["num_heads"]:
            tags.append("Grouped-query attention")
    formulas = " ".join(data.get("formulas", []))
    if "post_" in formulas and "pre_" in formulas:
        tags.append("Sandwich norms")
    if any(row["name"] == "layer_mid" and row["eager"] not in (None,) for row in data.get("support", [])):
        tags.append("No stream between the sublayers")
    if len(data.get("kinds", [])) > 1:
        tags.append("Blocks differ")
    if data.get("markers"):
        tags.append("Values it lacks")
    if any(f["name"] == "project_on_vocab" for f in data.get("functions", [])) or data.get("checkpoint", {}).get("config", {}).get("final_logit_softcapping"):
        tags.append("A step after the head")
    if data.get("checkpoint", {}).get("config", {}).get("tie_word_embeddings"):
        tags.append("Tied embeddings")
    for block in data.get("blocks", [])[:1]:
        names = {part["name"] for part in block["parts"]}
        if "experts" in names or any(row["value"] == "router_logits" for row in block["values"]):
            tags.append("Mixture of experts")
    return tags


def extract(model_type: str) -> dict[str, Any]:
    """Everything a family's page shows, as JSON-ready data; `problems` lists what could not be read."""
    from nnterp.families import lookup_module

    data: dict[str, Any] = {
        "schema": SCHEMA,
        "model_type": model_type,
        "slug": slug(model_type),
        "fingerprint": fingerprint(model_type),
        "problems": [],
    }
    try:
        module = lookup_module(model_type)
    except Exception as error:  # a family that does not import still gets a page saying so
        data.update(title=model_type, summary="", problems=[f"the family module does not import: {type(error).__name__}: {error}"])
        return data
    data["title"], data["summary"] = _title(module, model_type)
    data.update(module_facts(module))
    path = pinned_checkpoint(model_type)
    if path is None:
        data["problems"].append(f"no pinned tiny checkpoint under tiny_checkpoints/ has model_type {model_type!r}")
        return data
    manifest = _manifest(path)
    data["checkpoint"] = {
        "name": path.name,
        "path": f"tiny_checkpoints/{path.name}",
        "transformers": manifest.get("transformers"),
        "config": _config(path),
    }
    try:
        model = _load(path, dispatch=True, attn_implementation="eager")
        try:
            # Dispatched, as a wrapper-only type (Qwen2-VL's text model) has no causal-LM class to build on meta.
            default = _load(path, dispatch=True)
        except Exception as error:  # the default load failing alone still leaves the eager page
            default = None
            data["problems"].append(f"the default load fails: {type(error).__name__}: {error}")
        try:
            visits = _visits(model)
        except Exception as error:  # no run: the parts keep module order
            visits = None
            if (path / "processor_config.json").is_file() or (path / "preprocessor_config.json").is_file():
                # A wrapper whose forward refuses text alone (Kosmos-2) is read as the image-text-to-text load.
                model = _load(path, dispatch=True, attn_implementation="eager", task="image-text-to-text")
                try:
                    visits = _visits(model)
                except Exception:  # the first error is the one the page reports
                    visits = None
            if visits is None:
                visits = {}
                data["problems"].append(f"the probe run fails: {type(error).__name__}: {error}")
        data["sizes"] = _sizes(model, module)
        data["root"] = _root(model, default, visits)
        data["blocks"] = [_block(model, default, index, visits) for index in range(len(model.layers))]
        data["kinds"] = _kinds(data["blocks"])
        data["support"] = _support_rows(model, default)
        for block in data["blocks"]:
            if block["order_error"]:
                data["problems"].append(f"model.order({block['index']}) fails: {block['order_error']}")
    except Exception as error:
        data["problems"].append(
            f"the pinned checkpoint does not load or read: {type(error).__name__}: {error}\n"
            + "".join(traceback.format_exception(error)[-3:])
        )
    data["tags"] = _tags(data)
    return data


def extract_many(model_types: list[str], jobs: int | None = None) -> dict[str, dict[str, Any]]:
    """`extract` for each type, in `jobs` worker processes (default `NNTERP_SITE_JOBS`, else up to two)."""
    if jobs is None:
        jobs = int(os.environ.get("NNTERP_SITE_JOBS", min(2, os.cpu_count() or 1)))
    if jobs <= 1 or len(model_types) <= 1:
        return {model_type: extract(model_type) for model_type in model_types}
    import multiprocessing
    import sys
    from concurrent.futures import ProcessPoolExecutor

    # The workers are fresh interpreters that import this module by name: its folder goes on their path.
    site = str(Path(__file__).resolve().parents[1])
    if site not in sys.path:
        sys.path.insert(0, site)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        return dict(zip(model_types, pool.map(extract, model_types)))


# -- the page ---------------------------------------------------------------------------


def _cell(text: Any) -> str:
    """Text for a Markdown table cell."""
    if text is None:
        return ""
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def _code(text: Any) -> str:
    text = str(text)
    return f"`{text}`" if "`" not in text else f"``{text}``"


def _reason_cell(reason: Any) -> str:
    if reason is None:
        return "available"
    if reason == "absent":
        return "no key"
    if isinstance(reason, dict):
        blocks = ", ".join(sorted(reason, key=int))
        texts = sorted(set(reason.values()))
        return _cell(f"unavailable on blocks {blocks}: {'; '.join(texts)}")
    return _cell(f"unavailable: {reason}")


def _layout_cell(row: dict[str, Any]) -> str:
    if not row["layout"]:
        return ""
    return f"{_code(row['layout'])} `[{' '.join(row['dims'])}]`" if row["dims"] else _code(row["layout"])


def _values_tables(values: list[dict[str, Any]], prefix: str, classes: dict[str, str]) -> list[str]:
    lines: list[str] = []
    hosts: dict[str, list[dict[str, Any]]] = {}
    for row in values:
        hosts.setdefault(row["host"], []).append(row)
    for host, rows in hosts.items():
        label = ".".join(piece for piece in [prefix, host] if piece)
        klass = classes.get(host, "")
        lines += [f"### `{label}`" + (f" ({_code(klass)})" if klass else ""), ""]
        lines += ["| value | layout | what it is | read at | pinned checkpoint, eager load |", "| --- | --- | --- | --- | --- |"]
        for row in rows:
            name = _code(row["value"])
            lines.append(
                f"| {name} | {_layout_cell(row)} | {_cell(row['description'])} | {_cell(row['read_at'])} | {_reason_cell(row['reason'])} |"
            )
        lines.append("")
    return lines


def _finite(data: Any) -> Any:
    """`data` with each infinite or NaN float written as its string, since JSON has no such numbers."""
    if isinstance(data, float) and not math.isfinite(data):
        return str(data)
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(value) for value in data]
    return data


def _json_for_html(data: Any) -> str:
    text = json.dumps(_finite(data), sort_keys=True, separators=(",", ":"), default=str)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def render(data: dict[str, Any]) -> str:
    """The page's Markdown: prose and tables, the embedded data and the drawing's mount point."""
    slug_ = data["slug"]
    lines = [f"# {data.get('title') or data['model_type']}", ""]
    checkpoint = data.get("checkpoint") or {}
    facts = [f"family `{data['model_type']}`", f"module `{data.get('module', '?')}`"]
    if checkpoint:
        facts.append(f"pinned checkpoint `{checkpoint['path']}`")
    lines += [" · ".join(facts), ""]
    if data.get("doc"):
        lines += [data["doc"], ""]
    for problem in data.get("problems", []):
        lines += ['!!! failure "What the generator could not read"', "", "    " + problem.replace("\n", "\n    "), ""]
    if data.get("tags"):
        lines += ['<p class="ency-tags">' + "".join(f'<span class="ency-tag">{html.escape(t)}</span>' for t in data["tags"]) + "</p>", ""]
    blocks = data.get("blocks") or []
    if blocks:
        differ = len(data.get("kinds", [])) > 1
        lines += ["## The block", ""]
        lines.append(
            "One block of the stack, drawn in forward order with nnterp's names, the native name beside each. "
            "Hover a part for its nnterp name and the values read there; click it to pin the card."
            + (" The slider picks the block: this family's blocks differ." if differ else f" Every block has this shape ({len(blocks)} blocks on the pinned checkpoint).")
        )
        lines.append("")
        lines.append(f'<div class="nnterp-ency" data-family="{html.escape(slug_)}" data-blocks-differ="{str(differ).lower()}"></div>')
        lines.append("")
        lines.append(f'<script type="application/json" class="nnterp-ency-data" data-family="{html.escape(slug_)}">{_json_for_html(data)}</script>')
        lines.append("")
    if data.get("formulas"):
        lines += ["The block in standard names, as the family module states it:", "", "```text", *data["formulas"], "```", ""]
    if blocks and len(data.get("kinds", [])) > 1:
        lines += ["## Block kinds", "", "| blocks | kind |", "| --- | --- |"]
        for kind in data["kinds"]:
            lines.append(f"| {', '.join(map(str, kind['blocks']))} | {_cell(kind['label'])} |")
        lines.append("")
    if data.get("sizes"):
        lines += ["## Sizes", "", "On the pinned checkpoint:", "", "| size | value | rule |", "| --- | --- | --- |"]
        for row in data["sizes"]:
            lines.append(f"| `{row['name']}` | {_cell(row['value'])} | {row['rule']} |")
        lines.append("")
    if data.get("root"):
        lines += ["## Values, by host", ""]
        lines.append(
            "Every value with its layout, what it is, where the family reads it, and whether the pinned checkpoint "
            "has it when loaded with `attn_implementation=\"eager\"`."
        )
        lines.append("")
        root = data["root"]
        classes = {part["path"]: part["class"] for part in root["parts"]}
        classes[""] = root["class"]
        lines += _values_tables(root["values"], "model", classes)
        for kind in data["kinds"]:
            block = blocks[kind["blocks"][0]]
            classes = {part["path"]: part["class"] for part in block["parts"]}
            classes[""] = block["class"]
            prefix = "model.layers[i]" if len(data["kinds"]) == 1 else f"model.layers[{kind['blocks'][0]}]"
            lines += _values_tables(block["values"], prefix, classes)
    if data.get("support"):
        lines += ["## `support()`", ""]
        lines.append(
            "`model.support()` on the pinned checkpoint: a default load (the attention implementation transformers "
            "picks) beside a load with `attn_implementation=\"eager\"`."
        )
        lines += ["", "| value | default load | eager load |", "| --- | --- | --- |"]
        for row in data["support"]:
            lines.append(f"| `{row['name']}` | {_reason_cell(row['default'])} | {_reason_cell(row['eager'])} |")
        lines.append("")
    if blocks:
        lines += ["## The read order", ""]
        lines.append(
            "`model.order(i)` on the eager load: read a block's values in this order inside one trace "
            "(values of one rank are read at one location)."
        )
        lines.append("")
        for kind in data["kinds"]:
            block = blocks[kind["blocks"][0]]
            if len(data["kinds"]) > 1:
                lines += [f"Blocks {', '.join(map(str, kind['blocks']))}:", ""]
            if block["order_error"]:
                lines += [f"`model.order({block['index']})` fails: {_cell(block['order_error'])}", ""]
                continue
            if not block["order"]:
                # A block that serves nothing on this load (Mllama's cross-attention block on text) has no order.
                reasons = sorted({row["reason"] for row in block["values"] if row["reason"]})
                lines += [f"Block {block['index']} serves no value on this load: {_cell('; '.join(reasons))}", ""]
                continue
            ranks: dict[int, list[str]] = {}
            for name, rank in block["order"].items():
                ranks.setdefault(rank, []).append(name)
            lines += ["| rank | values |", "| --- | --- |"]
            for rank in sorted(ranks):
                lines.append(f"| {rank} | {', '.join(_code(name) for name in ranks[rank])} |")
            lines.append("")
    if data.get("rename"):
        lines += ["## Names: `RENAME`", "", "| native | standard |", "| --- | --- |"]
        for native, standard in data["rename"]:
            lines.append(f"| `{native}` | `{standard}` |")
        lines.append("")
    if data.get("envoys"):
        lines += ["## Envoys: `ENVOYS`", "", "| module class | envoy | built on | what it says |", "| --- | --- | --- | --- |"]
        for row in data["envoys"]:
            lines.append(f"| `{row['module_class']}` | `{row['envoy']}` | {_code(row['base']) if row['base'] else ''} | {_cell(row['doc'])} |")
        lines.append("")
    if data.get("markers"):
        lines += ["## Declared unavailable", "", "| envoy | value | reason |", "| --- | --- | --- |"]
        for row in data["markers"]:
            lines.append(f"| `{row['envoy']}` | `{row['value']}` | {_cell(row['reason'])} |")
        lines.append("")
    if data.get("redefined"):
        lines += ["## Values the family reads its own way", "", "| envoy | value | description |", "| --- | --- | --- |"]
        for row in data["redefined"]:
            lines.append(f"| `{row['envoy']}` | `{row['value']}` | {_cell(row['description'])} |")
        lines.append("")
    if data.get("functions"):
        lines += ["## Root attributes the family replaces", "", "| function | what it says |", "| --- | --- |"]
        for row in data["functions"]:
            lines.append(f"| `{row['name']}` | {_cell(row['doc'])} |")
        lines.append("")
    if blocks:
        lines += ["## Printout", "", "`print(model.layers[0])` on the eager load:", "", "```text", blocks[0]["printout"], "```", ""]
    if checkpoint.get("config"):
        lines += [
            "## Config",
            "",
            f'??? note "config.json of `{checkpoint["path"]}`"',
            "",
            "    ```json",
            *("    " + line for line in json.dumps(checkpoint["config"], indent=2, sort_keys=True).splitlines()),
            "    ```",
            "",
        ]
    return "\n".join(lines)


def embedded(page_html: str) -> list[dict[str, Any]]:
    """The data embedded in a built page's HTML (one dict per family drawn there)."""
    found = re.findall(r'<script type="application/json" class="nnterp-ency-data"[^>]*>(.*?)</script>', page_html, flags=re.S)
    return [json.loads(text.replace("<\\/", "</").replace("<\\!--", "<!--")) for text in found]


def canonical(data: dict[str, Any]) -> dict[str, Any]:
    """`data` as the page holds it (a JSON round trip), for comparing a fresh extraction with a built page."""
    return json.loads(json.dumps(_finite(data), sort_keys=True, default=str))
