"""The model types of the installed transformers release with no family, each run through the scaffold.

    python -m nnterp_harness.uncovered             # list them: causal LMs, then masked LMs with no record
    python -m nnterp_harness.uncovered --run DIR [--jobs N]   # scaffold each into DIR, build, run its suite, report

Upgrading transformers starts from this report: a clean draft is a family a person
reads and ships; a failing one names the suite methods and the forward lines it
could not place. The masked-LM types are listed too, those with neither a family nor a
reason in `nnterp_harness.masked_lms.UNSERVED`; the scaffold drafts decoders only, so
`--run` takes the causal-LM types.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nnsight  # noqa: F401  - before any transformers modeling module
import transformers

from nnterp_harness.masked_lms import UNSERVED
from nnterp_harness.scaffold.survey import survey, uncovered, write_summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nnterp_harness.uncovered", description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, metavar="DIR", help="scaffold every uncovered type into DIR and report")
    parser.add_argument("--only", nargs="*", help="restrict to these model types")
    parser.add_argument("--jobs", type=int, default=1, help="drafts built and run at once, one process each")
    args = parser.parse_args(argv)
    types = uncovered()
    if args.only:
        types = [t for t in types if t in args.only]
    print(f"transformers {transformers.__version__}: {len(types)} causal-LM types without a family")
    if not args.run:
        print("\n".join(types))
        masked = [t for t in uncovered("masked-lm") if t not in UNSERVED]
        print(f"{len(masked)} masked-LM types with neither a family nor a recorded reason")
        print("\n".join(masked))
        return 0
    reports = survey(types, args.run, jobs=args.jobs)
    data = write_summary(reports, args.run / "summary.json")
    print(
        f"{len(data['clean'])} of {len(reports)} drafts pass the whole suite unedited; summary in {args.run / 'summary.json'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
