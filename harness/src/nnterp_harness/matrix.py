"""The record of which shipped families each transformers release of the test matrix runs.

`python -m nnterp_harness.matrix record` writes the installed release's row of
`nnterp/families/_releases.json` (the shipped model types this release has);
run it under each release of the matrix after adding a family. The tests of
each release check their own row, so a stale record fails there.
"""

from __future__ import annotations

import json
import sys

import nnsight  # noqa: F401  - before any transformers modeling module
import transformers

from nnterp import coverage, families

#: The transformers releases of the nox matrix (noxfile.py's `TRANSFORMERS`).
MATRIX = ("5.17.0", "5.20.2", "5.24.0")


def _left_out(model_type: str) -> str | None:
    """Why the installed release, which has `model_type`, runs no suite for it, or `None`.

    The reason is its checkpoint entry's `cannot_run` (the forward fails) or
    `unserved` (the forward runs, the family's values do not).
    """
    from .checkpoints import ENTRIES

    for entry in ENTRIES.values():
        if families.module_name(entry.model_type) != families.module_name(model_type):
            continue
        for check in (entry.cannot_run, entry.unserved):
            reason = check() if check is not None else None
            if reason:
                return reason
    return None


def expected_row() -> list[str]:
    """The shipped model types the installed release has and runs: the families its test run holds to the suite."""
    return [model_type for model_type in families.known() if _left_out(model_type) is None]


def record() -> dict[str, list[str]]:
    """Write the installed release's row into the record and return the whole record."""
    release = transformers.__version__
    if release not in MATRIX:
        raise SystemExit(f"transformers {release} is not a release of the matrix {MATRIX}; nothing recorded")
    try:
        table = coverage.matrix_releases()
    except FileNotFoundError:
        table = {}
    table[release] = expected_row()
    table = {name: table[name] for name in MATRIX if name in table}
    coverage.RELEASES_FILE.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    return table


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["record"]:
        print("usage: python -m nnterp_harness.matrix record", file=sys.stderr)
        return 2
    table = record()
    print(f"recorded {len(table[transformers.__version__])} families for transformers {transformers.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
