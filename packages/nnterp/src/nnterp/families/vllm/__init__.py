"""The vLLM families, `nnterp.families.vllm.<model_type>`, shipped by the nnterp-vllm distribution.

The modules live in the installed ``nnterp_vllm`` package (its ``families`` folder),
which this package adds to its ``__path__``: they import as
``nnterp.families.vllm.<model_type>`` and under no other name. Without nnterp-vllm
installed the package is empty, so `nnterp.families.known("vllm")` is ``[]`` and a
lookup on the vllm engine raises `nnterp.UnsupportedFamily`.
"""

from __future__ import annotations

import importlib.util
import os


def _shipped_folder(part: str) -> list[str]:
    # find_spec locates the distribution without importing it (nor vLLM).
    spec = importlib.util.find_spec("nnterp_vllm")
    if spec is None or not spec.submodule_search_locations:
        return []
    return [
        folder for location in spec.submodule_search_locations if os.path.isdir(folder := os.path.join(location, part))
    ]


__path__ = [*__path__, *_shipped_folder("families")]
