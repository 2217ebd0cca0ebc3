"""The tiny-checkpoint entries: one module per checkpoint family, each declaring `ENTRIES`.

A module is named after the checkpoint it declares (``gpt_sw3.py`` for the
``gpt-sw3`` type). `collect()` imports them all, in name order.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..entry import Entry


def collect() -> dict[str, Entry]:
    """Every entry of every module under this package, by checkpoint name."""
    found: dict[str, Entry] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for entry in module.ENTRIES:
            if entry.name in found:
                raise ValueError(f"tiny checkpoint {entry.name!r} is declared twice ({info.name})")
            found[entry.name] = entry
    return dict(sorted(found.items()))
