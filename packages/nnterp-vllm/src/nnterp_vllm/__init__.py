"""nnterp's vLLM engine: `StandardizedVLLM`, the standard names and values on a vLLM model.

This release holds the package's place. Importing it needs neither vLLM nor a GPU,
and `StandardizedVLLM` is a name that refuses to build: the engine arrives in a
later release, and `nnterp.StandardizedTransformer` serves every value meanwhile.
"""

from __future__ import annotations

from typing import Any, NoReturn

__version__ = "2.0.0"

#: The message `StandardizedVLLM` raises with.
NOT_IN_THIS_RELEASE = "the vLLM engine is not part of this release; use nnterp.StandardizedTransformer"


class StandardizedVLLM:
    """nnsight's `VLLM` with nnterp's names and values; not part of this release.

    Constructing it raises `NotImplementedError`, whatever the arguments, so code
    written against the future engine fails at the load with a message that names
    the class to use instead.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> NoReturn:
        raise NotImplementedError(NOT_IN_THIS_RELEASE)


__all__ = ["NOT_IN_THIS_RELEASE", "StandardizedVLLM", "__version__"]
