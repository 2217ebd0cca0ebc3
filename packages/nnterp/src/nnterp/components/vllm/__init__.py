"""The vLLM components, `nnterp.components.vllm`, shipped by the nnterp-vllm distribution.

The modules live in the installed ``nnterp_vllm`` package (its ``components``
folder), which this package adds to its ``__path__``, so they import as
``nnterp.components.vllm.<module>``; the names below are those of its ``_exports``
module. Importing this package without nnterp-vllm installed raises `ImportError`.
"""

from __future__ import annotations

from nnterp.families.vllm import _shipped_folder

__path__ = [*__path__, *_shipped_folder("components")]

try:
    from ._exports import *  # noqa: F403 - the distribution's public names
    from ._exports import __all__  # noqa: F401
except ModuleNotFoundError as error:
    if error.name != f"{__name__}._exports":
        raise
    raise ImportError("nnterp.components.vllm needs the nnterp-vllm package: pip install 'nnterp[vllm]'") from error
