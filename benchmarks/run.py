"""nnterp against plain nnsight, like with like, as ratios; writes one JSON and one table.

    python benchmarks/run.py [--repeat N] [--checkpoint NAME ...] [--suites all|NAME ...] [--out DIR]

Every comparison runs the same work both ways, alternating the two so that drift
on a shared machine hits both alike, and reports the medians and their ratio:

- a trace reading `layer_output` of every block and the logits, against the raw
  nnsight trace reading the same module outputs (the native paths the standard
  values resolve to);
- a trace reading every block's attention pattern, against the raw trace reading
  the same operation through `.source`; and both reads in one trace;
- `StandardizedTransformer(path, dispatch=True)` against `TransformersModel(path,
  dispatch=True)` with its tokenizer loaded the same way;
- `import nnterp` against `import nnsight`, each in a fresh interpreter.

It also times `support()` on a 100-block config (no weights) and the first
`order(0)` probe, and with `--suites` the whole family suite of each named family
(`harness/families/test_<name>.py`, one pytest process each). The targets of the
ratios are printed beside them; nothing here is asserted in the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nnsight  # noqa: F401  - before any transformers modeling module
import torch

from nnterp import StandardizedTransformer
from nnterp.components import pick, resolve
from nnterp_harness.locate import checkpoint_path

PROMPT = "The Eiffel Tower is in the city of"
ROOT = Path(__file__).resolve().parent.parent
#: measurement -> the largest ratio (nnterp / raw) the project aims for.
TARGETS = {
    "trace: every layer_output": 1.05,
    "trace: every attention pattern (.source)": 1.10,
    "trace: both": 1.10,
    "construction": 1.10,
    "import": 1.30,
}
SUPPORT_TARGET_MS = 50.0


def paired(a, b, repeat: int) -> tuple[float, float]:
    """Medians in ms of `a` and `b`, run alternately after one warm-up each."""
    a()
    b()
    times_a, times_b = [], []
    for _ in range(repeat):
        for fn, times in ((a, times_a), (b, times_b)):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times_a), statistics.median(times_b)


def once_ms(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def raw_reader(model, host, name):
    """(walk, select, attribute): how the raw trace reaches the location value `name` of `host` is served at."""
    attr = type(host).values()[name]
    location, attribute = resolve(host, attr._key(host), walk=False, name=name)
    segments = location.split(".")[1:-1]  # drop the root's name and output/input
    return segments, attr._select(host), attribute


def read_raw(raw, reader):
    segments, select, attribute = reader
    node = raw
    for segment in segments:
        node = getattr(node, segment)
    served = node.output if attribute == "output" else node.input if attribute == "input" else node.inputs
    value = pick(attribute, served, select)
    return value[0] if isinstance(value, tuple) else value


def load_raw(path: str, **kwargs):
    from nnsight import TransformersModel
    from transformers import AutoTokenizer

    return TransformersModel(path, task="text-generation", tokenizer=AutoTokenizer.from_pretrained(path), **kwargs)


def bench_checkpoint(name: str, repeat: int) -> list[dict]:
    path = str(checkpoint_path(name))
    model = StandardizedTransformer(path, dispatch=True, attn_implementation="eager")
    raw = load_raw(path, dispatch=True, attn_implementation="eager")
    blocks = list(model.layers)
    outputs = [raw_reader(model, block, "layer_output") for block in blocks]
    patterns = [raw_reader(model, block.self_attn, "attention_probabilities") for block in blocks]

    def std_outputs():
        with model.trace(PROMPT):
            for block in model.layers:
                block.layer_output.save()
            model.logits.save()

    def raw_outputs():
        with raw.trace(PROMPT):
            for reader in outputs:
                read_raw(raw, reader).save()
            raw.output.logits.save()

    def std_patterns():
        with model.trace(PROMPT):
            for block in model.layers:
                block.self_attn.attention_probabilities.save()
            model.logits.save()

    def raw_patterns():
        with raw.trace(PROMPT):
            for reader in patterns:
                read_raw(raw, reader).save()
            raw.output.logits.save()

    def std_both():
        with model.trace(PROMPT):
            for block in model.layers:
                block.self_attn.attention_probabilities.save()
                block.layer_output.save()
            model.logits.save()

    def raw_both():
        with raw.trace(PROMPT):
            for pattern, output in zip(patterns, outputs):
                read_raw(raw, pattern).save()
                read_raw(raw, output).save()
            raw.output.logits.save()

    # the raw reads are the same tensors the standard values serve
    with model.trace(PROMPT):
        std_pattern = model.layers[0].self_attn.attention_probabilities.save()
        std_output = model.layers[0].layer_output.save()
    with raw.trace(PROMPT):
        raw_pattern = read_raw(raw, patterns[0]).save()
        raw_output = read_raw(raw, outputs[0]).save()
    same = torch.equal(std_pattern, raw_pattern) and torch.equal(std_output, raw_output)
    assert same, f"{name}: the raw reads differ from the standard values"

    def construct_std():
        StandardizedTransformer(path, dispatch=True, attn_implementation="eager")

    def construct_raw():
        load_raw(path, dispatch=True, attn_implementation="eager")

    def order():
        model._order_cache.clear()
        model.order(0)

    rows = []
    for what, a, b, n in (
        ("trace: every layer_output", std_outputs, raw_outputs, repeat),
        ("trace: every attention pattern (.source)", std_patterns, raw_patterns, repeat),
        ("trace: both", std_both, raw_both, repeat),
        ("construction", construct_std, construct_raw, max(3, repeat // 4)),
    ):
        ours, theirs = paired(a, b, n)
        rows.append(row(what, name, ours, theirs))
    rows.append(row("order(0) probe", name, once_ms(order, repeat), None))
    return rows


def row(what: str, checkpoint: str, ours: float, theirs: float | None, target: float | None = None) -> dict:
    ratio = ours / theirs if theirs else None
    target = TARGETS.get(what) if target is None else target
    if ratio is not None:
        meets = ratio <= target if target else None
    else:
        meets = ours < target if target else None
    return {
        "measurement": what,
        "checkpoint": checkpoint,
        "nnterp_ms": round(ours, 3),
        "raw_ms": None if theirs is None else round(theirs, 3),
        "ratio": None if ratio is None else round(ratio, 3),
        "target": target,
        "meets_target": meets,
    }


def bench_import(repeat: int) -> dict:
    """`import nnterp` against `import nnsight`, each timed inside a fresh interpreter."""

    def child(module: str) -> float:
        code = f"import time; t = time.perf_counter(); import {module}; print((time.perf_counter() - t) * 1000)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])

    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(child("nnterp"))
        theirs.append(child("nnsight"))
    return row("import", "-", statistics.median(ours), statistics.median(theirs))


def bench_support(repeat: int) -> dict:
    """`support()` on a lazily built 100-block gpt2 config: the module tree only, no weights."""
    source = checkpoint_path("gpt2")
    with tempfile.TemporaryDirectory() as tmp:
        for name in os.listdir(source):
            if name.endswith(".json") and name != "config.json":
                shutil.copy(source / name, tmp)
        config = json.loads((source / "config.json").read_text())
        config["n_layer"] = 100
        Path(tmp, "config.json").write_text(json.dumps(config))
        model = StandardizedTransformer(tmp)
        assert len(model.layers) == 100
        ms = once_ms(model.support, repeat)
    return row("support() on 100 blocks", "gpt2x100", ms, None, target=SUPPORT_TARGET_MS)


def bench_suites(names: list[str]) -> list[dict]:
    """The whole family suite of each family, one pytest process each (wall time, loading included)."""
    rows = []
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "CUDA_VISIBLE_DEVICES": ""}
    for name in names:
        test = ROOT / "harness" / "families" / f"test_{name}.py"
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", str(test), "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        ms = (time.perf_counter() - start) * 1000
        summary = (done.stdout.strip().splitlines() or ["no output"])[-1]
        entry = row("family suite", name, ms, None)
        entry["result"] = summary
        rows.append(entry)
    return rows


def table(rows: list[dict]) -> str:
    head = f"| {'measurement':<42} | {'checkpoint':<10} | {'nnterp ms':>10} | {'raw ms':>10} | {'ratio':>6} | {'target':>8} | ok |"
    lines = [head, "|" + "|".join("-" * (len(part) + 0) for part in head.split("|")[1:-1]) + "|"]
    for r in rows:
        raw = "" if r["raw_ms"] is None else f"{r['raw_ms']:.2f}"
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.3f}"
        if r["target"] is None:
            target = ""
        else:
            target = f"<= {r['target']:.2f}x" if r["ratio"] is not None else f"< {r['target']:.0f} ms"
        ok = {True: "yes", False: "no", None: ""}[r["meets_target"]]
        what = r["measurement"] if "result" not in r else f"family suite ({r['result']})"
        lines.append(
            f"| {what:<42} | {r['checkpoint']:<10} | {r['nnterp_ms']:>10.2f} | {raw:>10} | {ratio:>6} | {target:>8} | {ok:<2} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--checkpoint", nargs="*", default=["gpt2", "llama", "bloom"])
    parser.add_argument("--suites", nargs="*", default=None, help="family modules, or 'all' for every test file")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    args = parser.parse_args()
    torch.set_num_threads(1)

    rows = [bench_import(max(5, args.repeat // 3)), bench_support(args.repeat)]
    for name in args.checkpoint:
        rows += bench_checkpoint(name, args.repeat)
    if args.suites is not None:
        names = args.suites
        if names in ([], ["all"]):
            names = sorted(p.stem[len("test_") :] for p in (ROOT / "harness" / "families").glob("test_*.py"))
        rows += bench_suites(names)

    text = table(rows)
    print(text)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "nnsight": nnsight.__version__,
        "transformers": __import__("transformers").__version__,
        "threads": torch.get_num_threads(),
        "repeat": args.repeat,
    }
    (out / "bench.json").write_text(json.dumps({"environment": meta, "rows": rows}, indent=2))
    (out / "bench.md").write_text(text + "\n")
    print(f"wrote {out / 'bench.json'} and {out / 'bench.md'}")


if __name__ == "__main__":
    main()
