"""Speed and memory of nnterp's standardized traces against a plain nnsight trace, on the pinned checkpoints.

    python benchmarks/run.py [--repeat N] [--checkpoint NAME ...]

For each checkpoint it times, over `--repeat` runs after a warm-up: a plain
`TransformersModel` trace saving the logits, a `StandardizedTransformer` trace saving
`layer_output` of every block and the logits, the same trace with the attention
pattern of every block (interior values drill into the eager attention), and the
first `model.order(0)` probe. It prints one row per measurement with the median in
milliseconds and the process's peak resident memory. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import nnsight  # noqa: F401  - before any transformers modeling module
import torch

from nnterp import StandardizedTransformer
from nnterp_harness.locate import checkpoint_path

PROMPT = "The Eiffel Tower is in the city of"


def median_ms(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench(name: str, repeat: int) -> list[tuple[str, str, float]]:
    from nnsight import TransformersModel
    from transformers import AutoTokenizer

    path = str(checkpoint_path(name))
    raw = TransformersModel(path, dispatch=True, task="text-generation", tokenizer=AutoTokenizer.from_pretrained(path))
    model = StandardizedTransformer(path, dispatch=True, attn_implementation="eager")

    def plain():
        with raw.trace(PROMPT):
            raw.output.logits.save()

    def boundaries():
        with model.trace(PROMPT):
            for layer in model.layers:
                layer.layer_output.save()
            model.logits.save()

    def patterns():
        with model.trace(PROMPT):
            for layer in model.layers:
                layer.self_attn.attention_probabilities.save()
            model.logits.save()

    def order():
        model._order_cache.clear()
        model.order(0)

    rows = [
        (name, "plain nnsight trace, logits", median_ms(plain, repeat)),
        (name, "every layer_output and logits", median_ms(boundaries, repeat)),
        (name, "every attention pattern and logits", median_ms(patterns, repeat)),
        (name, "order(0) probe", median_ms(order, repeat)),
    ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--checkpoint", nargs="*", default=["llama", "gpt2", "bloom", "demo"])
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"{'checkpoint':<10} {'measurement':<38} {'median ms':>10}")
    for name in args.checkpoint:
        for checkpoint, what, ms in bench(name, args.repeat):
            print(f"{checkpoint:<10} {what:<38} {ms:>10.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
