"""The tiny-checkpoint entries: the data ones in ``data/entries.yaml``, one module per entry that needs code.

A data entry maps a checkpoint name to what differs from `Entry`'s defaults and
`TEXT_DEFAULTS`; its keys are `DATA_KEYS`. A module is named after the checkpoint it declares
(``gpt_sw3.py`` for the ``gpt-sw3`` type) and declares `ENTRIES`, a tuple of
`Entry`. `collect()` gathers both.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

import yaml

from ..entry import TEXT_DEFAULTS, Entry

#: The file of the entries that are pure data.
DATA = Path(__file__).resolve().parent.parent / "data" / "entries.yaml"
#: The keys a data entry may hold: `Entry`'s fields that are data (its name is the entry's key in the file), and
#: `without`, the keys of `TEXT_DEFAULTS` the family's config does not take.
DATA_KEYS: tuple[str, ...] = ("model_type", "overrides", "without", "tokenizer", "auto_class", "init_in_float64")


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a mapping that repeats a key (the plain one keeps the last silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                mark = key_node.start_mark
                raise ValueError(f"{mark.name}, line {mark.line + 1}: {key!r} is declared twice")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def from_data(name: str, data: dict[str, Any]) -> Entry:
    """The `Entry` a data entry declares.

    Its model type is its name unless it says otherwise, and its overrides are
    `TEXT_DEFAULTS` (less the keys its `without` names) updated with its own. Raises
    `ValueError` on a key outside `DATA_KEYS`, naming the valid ones, and on a
    `without` that names a key outside `TEXT_DEFAULTS`.
    """
    if not isinstance(data, dict):
        raise ValueError(f"data entry {name!r} is a {type(data).__name__}, not a mapping of {', '.join(DATA_KEYS)}")
    unknown = sorted(set(data) - set(DATA_KEYS))
    if unknown:
        raise ValueError(f"data entry {name!r} has unknown keys {unknown}; valid keys: {', '.join(DATA_KEYS)}")
    fields = dict(data)
    without = fields.pop("without", [])
    if not isinstance(without, list) or not isinstance(fields.get("overrides", {}), dict):
        raise ValueError(f"data entry {name!r}: without is a list of keys and overrides a mapping of config keys")
    stray = sorted(set(without) - set(TEXT_DEFAULTS))
    if stray:
        raise ValueError(f"data entry {name!r}: without names {stray}, not keys of {', '.join(TEXT_DEFAULTS)}")
    shared = {key: value for key, value in TEXT_DEFAULTS.items() if key not in without}
    fields["overrides"] = {**shared, **fields.get("overrides", {})}
    return Entry(name, **{"model_type": name, **fields})


def read_data(path: Path = DATA) -> dict[str, Any]:
    """The data entries of the file at `path` as written, by checkpoint name."""
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_UniqueKeyLoader) or {}


def load_data(path: Path = DATA) -> dict[str, Entry]:
    """Every data entry of the file at `path`, by checkpoint name."""
    return {name: from_data(name, data) for name, data in read_data(path).items()}


def collect() -> dict[str, Entry]:
    """Every entry, data and module, by checkpoint name."""
    found: dict[str, Entry] = load_data()
    where = dict.fromkeys(found, DATA.name)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for entry in module.ENTRIES:
            if entry.name in found:
                raise ValueError(f"tiny checkpoint {entry.name!r} is declared twice ({where[entry.name]}, {info.name})")
            found[entry.name] = entry
            where[entry.name] = info.name
    return dict(sorted(found.items()))
