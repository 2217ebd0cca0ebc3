"""nnterp: one set of module names and standard values on every transformer family, on nnsight.

`import nnterp` loads no transformers modeling module: a family module is imported
the first time a checkpoint of its `model_type` is loaded.
"""

from . import _anyio  # noqa: F401  # isort: skip  - anyio's typed-attribute classes before nnsight's `.save` mount

from importlib.metadata import version  # noqa: E402

import nnsight  # noqa: E402,F401  - nnsight before any transformers modeling module

from .components import (
    Attention,
    DerivedEProperty,
    EProperty,
    Layer,
    Mlp,
    Moe,
    Standard,
    Unavailable,
    axis_size,
    block_per_token,
    chunk_per_token,
    route_delta_rule,
    route_kernels,
    unavailable,
)
from .families import UnsupportedFamily
from .standardized import Standardized, StandardizedTransformer

#: The installed distribution's version, which the build reads from the repository's VERSION file.
__version__ = version("nnterp")


def __getattr__(name: str):
    # The vLLM engine comes from the nnterp-vllm distribution, imported on first use.
    if name == "StandardizedVLLM":
        try:
            import nnterp_vllm
        except ModuleNotFoundError as error:
            raise ImportError("StandardizedVLLM needs the nnterp-vllm package: pip install 'nnterp[vllm]'") from error
        return nnterp_vllm.StandardizedVLLM
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Attention",
    "DerivedEProperty",
    "EProperty",
    "Layer",
    "Mlp",
    "Moe",
    "Standard",
    "Standardized",
    "StandardizedTransformer",
    "Unavailable",
    "UnsupportedFamily",
    "axis_size",
    "block_per_token",
    "chunk_per_token",
    "route_delta_rule",
    "route_kernels",
    "unavailable",
]
