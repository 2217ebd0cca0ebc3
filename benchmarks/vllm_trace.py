"""`StandardizedVLLM` against plain nnsight `VLLM`, the same trace both ways, as a ratio.

    python benchmarks/vllm_trace.py [--checkpoint PATH] [--repeat N] [--out FILE]

Both engines load the same checkpoint in float32 in this process (vLLM's in-process
mode), the raw one through this package's worker so that it runs on a CPU-only
machine too. Each trace reads every block's stream leaving it and the logits on a
one-token request: `layers[i].layer_output` and `logits` on the standardized
engine, and on the raw one the native block outputs (cloned, the pair summed on a
fused block, as nnsight's vLLM documentation asks) and `logits`. The two are run
alternately after a warm-up, and the medians and their ratio are printed and
written as JSON. Nothing here is asserted in the tests.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import time
from pathlib import Path

os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
os.environ.setdefault("VLLM_CPU_OMP_THREADS_BIND", "auto")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import nnsight  # noqa: E402

PROMPT = "The Eiffel Tower is in the city of"
ROOT = Path(__file__).resolve().parent.parent
#: The largest ratio (nnterp / raw) the project aims for.
TARGET = 1.10
ENGINE = {"dispatch": True, "dtype": "float32", "max_model_len": 128, "max_num_seqs": 4, "seed": 0}


def engines(path: str):
    """The standardized engine and a raw nnsight engine on `path`."""
    from nnsight.modeling.vllm import VLLM

    from nnterp import StandardizedVLLM
    from nnterp_vllm.workers import quiet_accelerator, worker_class

    memory = {"kv_cache_memory_bytes": 64 * 2**20}
    gc.freeze()
    standardized = StandardizedVLLM(path, **ENGINE, **memory)
    quiet_accelerator()

    class RawVLLM(VLLM):
        _WORKER_CLS = worker_class()

    raw = RawVLLM(path, **ENGINE, **memory)
    return standardized, raw


def standardized_trace(model) -> None:
    blocks = list(range(model.num_layers))
    with model.trace(PROMPT, temperature=0.0, max_tokens=1):
        streams = nnsight.save([])
        for index in blocks:
            streams.append(model.layers[index].layer_output)
        model.logits.save()


def raw_trace(model, layers: str, fused: bool) -> None:
    stack = model
    for part in layers.split("."):
        stack = getattr(stack, part)
    blocks = list(range(len(stack)))
    with model.trace(PROMPT, temperature=0.0, max_tokens=1):
        streams = nnsight.save([])
        for index in blocks:
            output = stack[index].output
            streams.append((output[0] + output[1]) if fused else output.clone())
        model.logits.save()


def paired(a, b, repeat: int) -> tuple[float, float]:
    """Medians in ms of `a` and `b`, run alternately after one warm-up each."""
    a()
    b()
    first, second = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        a()
        first.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        b()
        second.append((time.perf_counter() - start) * 1000)
    return statistics.median(first), statistics.median(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", default=str(ROOT / "tiny_checkpoints" / "demo"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "vllm_trace.json"))
    args = parser.parse_args()

    from nnterp_vllm.components import FusedLayer

    standardized, raw = engines(args.checkpoint)
    layers = next(native for native, alias in standardized.family.RENAME.items() if alias == "layers")
    fused = isinstance(standardized.layers[0], FusedLayer)
    ours, theirs = paired(lambda: standardized_trace(standardized), lambda: raw_trace(raw, layers, fused), args.repeat)
    result = {
        "checkpoint": args.checkpoint,
        "family": standardized.family.__name__,
        "blocks": standardized.num_layers,
        "standardized_ms": round(ours, 2),
        "raw_ms": round(theirs, 2),
        "ratio": round(ours / theirs, 3),
        "target": TARGET,
        "repeat": args.repeat,
        "machine": platform.platform(),
    }
    print(
        f"trace: every layer_output and the logits  nnterp {ours:.1f} ms  raw {theirs:.1f} ms  "
        f"ratio {ours / theirs:.3f} (target <= {TARGET})"
    )
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
