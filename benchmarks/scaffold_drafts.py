"""How many scaffold drafts of the shipped families pass the whole FamilySuite with no edit.

For every shipped family the scaffold drafts the type afresh from the installed
transformers (the shipped module is not read), builds the draft's checkpoint and
runs the suite on the draft. It prints a line per type and writes
`benchmarks/results/scaffold_drafts.json`: the clean drafts, the failing ones with
their failing suite methods, and what each draft marked as needing a person.

    python benchmarks/scaffold_drafts.py [--only TYPE ...]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import nnsight  # noqa: F401  - before any transformers modeling module

from nnterp.families import known
from nnterp.scaffold.survey import survey, write_summary

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="restrict to these model types")
    args = parser.parse_args()
    types = [t for t in known() if not args.only or t in args.only]
    RESULTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as root:
        reports = survey(types, Path(root))
        data = write_summary(reports, RESULTS / "scaffold_drafts.json")
    share = len(data["clean"]) / max(len(reports), 1)
    print(f"{len(data['clean'])} of {len(reports)} drafts ({share:.0%}) pass the whole FamilySuite unedited")
    print(f"failing drafts that marked nothing for a person: {data['failing_unflagged'] or 'none'}")
    print("failing suite methods:", data["failing_methods"])


if __name__ == "__main__":
    main()
