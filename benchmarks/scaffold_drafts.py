"""How many scaffold drafts of the shipped families pass the whole FamilySuite with no edit.

For every shipped family the scaffold drafts the type afresh from the installed
transformers (the shipped module is not read, only its kind: dense, MoE or
recurrent, from the component bases its envoys take), builds the draft's
checkpoint and runs the suite on the draft. It prints a line per type and writes
`benchmarks/results/scaffold_drafts.json`: per kind, the clean drafts, the failing
ones with their failing suite methods, and what each draft marked as needing a
person; and the tracked `benchmarks/scaffold_drafts.md`, the same in a table.

    python benchmarks/scaffold_drafts.py [--types TYPE ...] [--kinds dense moe recurrent] [--jobs N] [--out FILE] [--summary FILE] [--merge] [--note TEXT]

A run cut short keeps what landed; `--merge` runs the rest later into the same file.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import nnsight  # noqa: F401  - before any transformers modeling module

from nnterp.families import known, lookup_module
from nnterp_harness.scaffold import Report
from nnterp_harness.scaffold.survey import summary, survey

RESULTS = Path(__file__).resolve().parent / "results"
#: The tracked summary of the results, in words and numbers.
SUMMARY = Path(__file__).resolve().parent / "scaffold_drafts.md"
KINDS = ("dense", "moe", "recurrent")


def kind(model_type: str) -> str:
    """The shipped family's kind, from the component modules its envoy classes derive from."""
    bases = {
        base.__module__.rpartition(".")[2]
        for envoy in getattr(lookup_module(model_type), "ENVOYS", {}).values()
        for base in getattr(envoy, "__mro__", ())
        if base.__module__.startswith("nnterp.components")
    }
    if "moe" in bases:
        return "moe"
    if any("recurrent" in name or "mixer" in name for name in bases):
        return "recurrent"
    return "dense"


def summarize(reports: dict[str, dict], kinds: dict[str, str], requested: list[str]) -> dict:
    """The results file: per kind, the summary of the reports and the requested types not run yet; the reports themselves."""
    data: dict = {}
    for name in KINDS:
        part = [Report(model_type=t, out=Path(), **fields) for t, fields in sorted(reports.items()) if kinds[t] == name]
        pending = sorted(t for t in requested if kinds[t] == name and t not in reports)
        if part or pending:
            data[name] = {**summary(part), "not_run": pending}
    data["reports"] = {t: {"kind": kinds[t], **fields} for t, fields in sorted(reports.items())}
    return data


def markdown(data: dict, kinds: dict[str, str], note: str | None = None) -> str:
    """The tracked summary: per kind, the clean drafts and, for each failing one, its failing methods and flags.

    `note` says what changed since the last measurement; it follows the date.
    """
    import datetime

    import transformers

    lines = [
        "# Scaffold drafts of the shipped families",
        "",
        "Written by `benchmarks/scaffold_drafts.py` (the whole data in the git-ignored",
        f"`benchmarks/results/scaffold_drafts.json`), on transformers {transformers.__version__}. A draft is clean",
        "when it passes the whole `FamilySuite` with no edit; a failing draft is flagged when it names",
        "something as needing a person.",
        "",
        f"Measured on {datetime.date.today().isoformat()}.{' ' + note if note else ''}",
        "",
    ]
    reports = data["reports"]
    for name in KINDS:
        shipped = sorted(t for t, k in kinds.items() if k == name)
        ran = [t for t in shipped if t in reports]
        if not shipped:
            continue
        clean = [t for t in ran if not reports[t]["failed"] and not reports[t]["error"] and reports[t]["passed"]]
        share = f" ({len(clean) / len(ran):.0%})" if ran else ""
        lines += [f"## {name}", "", f"{len(clean)} of {len(ran)} drafts measured pass unedited{share};"]
        lines[-1] += f" {len(shipped) - len(ran)} of the {len(shipped)} shipped types not measured in this file."
        lines += ["", f"Clean: {', '.join(clean) or 'none'}.", ""]
        failing = [t for t in ran if t not in clean]
        if failing:
            lines += ["| type | failing suite methods | flagged by the draft |", "| --- | --- | --- |"]
            for t in failing:
                report = reports[t]
                error = " ".join((report["error"] or "").split())  # one table row, whatever lines the error spans
                methods = ", ".join(m.removeprefix("test_") for m in report["failed"]) or f"not drafted: {error}"
                lines.append(f"| {t} | {methods} | {'yes' if report['needs_person'] else 'no'} |")
            lines.append("")
        missing = [t for t in shipped if t not in reports]
        if missing:
            from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

            wrapped = [t for t in missing if t not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES]
            pending = [t for t in missing if t not in wrapped]
            if pending:
                lines += [f"Not measured: {', '.join(pending)}.", ""]
            if wrapped:
                lines += [
                    "Not measured, not causal-LM types of this release (the scaffold drafts what "
                    f"`AutoModelForCausalLM` builds): {', '.join(wrapped)}.",
                    "",
                ]
    return "\n".join(lines).rstrip() + "\n"


def fields(report: Report) -> dict:
    """What the results file keeps of a report."""
    return {
        "passed": report.passed,
        "skipped": report.skipped,
        "failed": report.failed,
        "error": report.error,
        "needs_person": report.needs_person,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", "--only", nargs="*", dest="types", help="restrict to these model types")
    parser.add_argument("--kinds", nargs="*", choices=KINDS, help="restrict to these kinds of family")
    parser.add_argument("--jobs", type=int, default=1, help="drafts built and run at once, one process each")
    parser.add_argument("--out", type=Path, default=RESULTS / "scaffold_drafts.json", help="where the summary goes")
    parser.add_argument("--summary", type=Path, default=SUMMARY, help="where the tracked summary in words goes")
    parser.add_argument(
        "--merge", action="store_true", help="keep the reports already in --out for the types this run does not redo"
    )
    parser.add_argument("--note", help="what changed since the last measurement, written under the date")
    args = parser.parse_args()
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    shipped = known()
    # The scaffold drafts what AutoModelForCausalLM builds; a text model served only inside a wrapper is not measured.
    types = [t for t in shipped if (not args.types or t in args.types) and t in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES]
    kinds = {t: kind(t) for t in shipped}
    if args.kinds:
        types = [t for t in types if kinds[t] in args.kinds]
    types.sort(key=lambda t: (KINDS.index(kinds[t]), t))  # dense first: a run cut short still counts them
    args.out.parent.mkdir(parents=True, exist_ok=True)
    kept: dict[str, dict] = {}
    if args.merge and args.out.is_file():
        previous = json.loads(args.out.read_text(encoding="utf-8")).get("reports", {})
        kept = {
            t: {k: v for k, v in r.items() if k != "kind"} for t, r in previous.items() if t in kinds and t not in types
        }
    requested = sorted({*types, *kept})

    def record(reports: list[Report]) -> dict:
        """Write the results of the reports so far to `args.out` (a run cut short keeps what landed)."""
        data = summarize({**kept, **{r.model_type: fields(r) for r in reports}}, kinds, requested)
        args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        args.summary.write_text(markdown(data, kinds, args.note), encoding="utf-8")
        return data

    with tempfile.TemporaryDirectory() as root:
        reports = survey(types, Path(root), jobs=args.jobs, landed=record)
    data = record(reports)
    for name in KINDS:
        if name not in data or not data[name]["drafted"]:
            continue
        part, clean = data[name]["drafted"], data[name]["clean"]
        print(f"{name}: {len(clean)} of {part} drafts ({len(clean) / part:.0%}) pass the whole FamilySuite unedited")
        print(f"  of those, marking nothing for a person: {len(data[name]['clean_unmarked'])}")
        print(f"  failing drafts that marked nothing for a person: {data[name]['failing_unflagged'] or 'none'}")
        print("  failing suite methods:", data[name]["failing_methods"])


if __name__ == "__main__":
    main()
