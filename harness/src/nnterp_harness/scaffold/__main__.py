"""`python -m nnterp_harness.scaffold <model_type> [--out DIR] [--no-run]`: draft a family and print the report.

It exits 0 when the draft was written (and, unless `--no-run`, its checkpoint built
and its suite run, whatever the suite's results), 2 when the type could not be drafted.
"""

from __future__ import annotations

import argparse
import sys

from nnterp_harness.scaffold import scaffold


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m nnterp_harness.scaffold",
        description="Draft a family, a tiny checkpoint and a suite file for a model type, and run the suite on it.",
    )
    parser.add_argument("model_type", help="a causal-LM model_type of the installed transformers")
    parser.add_argument("--out", help="where to write the draft (default: ./scaffold/<module>)")
    parser.add_argument("--no-run", action="store_true", help="write the files only: no checkpoint, no suite run")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    report = scaffold(args.model_type, args.out, run=not args.no_run)
    print(report.text())
    return 0 if report.error is None else 2


if __name__ == "__main__":
    sys.exit(main())
