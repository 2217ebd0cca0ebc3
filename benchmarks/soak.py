"""A long loop of traces on one model: resident memory stays flat, and a failing trace leaves the model usable.

    python benchmarks/soak.py [--traces N] [--checkpoint NAME] [--json PATH]

Each iteration opens one trace that reads and writes standard values: a block's
`layer_output` read, an `mlp_output` written, the logits saved. Every tenth
iteration is a `model.generate` reading a block at every step instead, and every
tenth from the fifth on is a `model.session` holding two traces. In the middle of
the loop one trace reads an unavailable value (`Unavailable`) and one reads two
blocks out of forward order (`OutOfOrderError`); the trace after each must give the
same logits as the first clean run. The resident memory is sampled (after a
garbage collection) every 100 traces and the growth of each stretch is printed.
Nothing here is asserted in the tests: it is a measurement, run by hand or by
`nox -s bench`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import time

import nnsight  # noqa: F401  - before any transformers modeling module
import torch
from nnsight.intervention.interleaver import OutOfOrderError

from nnterp import StandardizedTransformer, Unavailable
from nnterp_harness.locate import checkpoint_path

PROMPT = "The Eiffel Tower is in the city of"
PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_mib() -> float:
    """This process's resident set, in MiB, after a full collection."""
    gc.collect()
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * PAGE / 2**20


def soak(name: str, traces: int) -> dict:
    # sdpa, the default: the attention pattern is unavailable, which the failing trace reads.
    model = StandardizedTransformer(str(checkpoint_path(name)), dispatch=True)
    last = len(model.layers) - 1

    def plain():
        with model.trace(PROMPT):
            model.layers[0].layer_output.save()
            mlp = model.layers[last].mlp.mlp_output
            model.layers[last].mlp.mlp_output = mlp * 0.5
            logits = model.logits.save()
        return logits

    def generation():
        steps = []
        with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
            for _ in tracer.iter[:3]:
                steps.append(model.layers[last].layer_output.save())
        assert len(steps) == 3

    def session():
        with model.session():
            with model.trace(PROMPT):
                first = model.layers[0].layer_output.save()
            with model.trace(PROMPT):
                model.layers[0].layer_output = first * 1.0
                logits = model.logits.save()
        return logits

    def unavailable():
        with model.trace(PROMPT):
            model.layers[0].self_attn.attention_probabilities.save()

    def out_of_order():
        with model.trace(PROMPT):
            model.layers[last].layer_output.save()
            model.layers[0].layer_output.save()

    reference = plain()
    failures = {
        "Unavailable": (traces // 2, unavailable, Unavailable),
        "OutOfOrderError": (traces // 2 + 1, out_of_order, OutOfOrderError),
    }
    samples = [resident_mib()]
    recovered = {}
    start = time.perf_counter()
    for i in range(1, traces + 1):
        failing = [(label, fn, error) for label, (at, fn, error) in failures.items() if at == i]
        if failing:
            label, fn, error = failing[0]
            try:
                fn()
            except error:
                pass
            else:
                raise AssertionError(f"the {label} trace did not raise")
            recovered[label] = bool(torch.equal(plain(), reference))
        elif i % 10 == 0:
            generation()
        elif i % 10 == 5:
            session()
        else:
            plain()
        if i % 100 == 0:
            samples.append(resident_mib())
    seconds = time.perf_counter() - start
    growth = [round(b - a, 2) for a, b in zip(samples, samples[1:])]
    return {
        "checkpoint": name,
        "traces": traces,
        "seconds": round(seconds, 1),
        "resident_mib": [round(s, 1) for s in samples],
        "growth_per_100_mib": growth,
        "recovered": recovered,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=1000)
    parser.add_argument("--checkpoint", default="gpt2")
    parser.add_argument("--json", default=None, help="also write the result to this file")
    args = parser.parse_args()
    torch.set_num_threads(1)
    result = soak(args.checkpoint, args.traces)
    print(f"{result['traces']} traces on {result['checkpoint']} in {result['seconds']} s")
    print("resident MiB every 100 traces:", " ".join(f"{s:.1f}" for s in result["resident_mib"]))
    print("growth per 100 traces (MiB):  ", " ".join(f"{g:+.2f}" for g in result["growth_per_100_mib"]))
    for label, ok in result["recovered"].items():
        print(f"after a failing trace ({label}): the next trace gives the reference logits: {ok}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
