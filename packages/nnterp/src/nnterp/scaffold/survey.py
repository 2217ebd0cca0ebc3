"""Scaffold many types at once: the drafts for a list of model types, and a summary of how far each got."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from . import Report, scaffold


def uncovered() -> list[str]:
    """The causal-LM model types of the installed transformers that ship no family module."""
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    from nnterp.families import known

    shipped = set(known())
    return sorted(model_type for model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES if model_type not in shipped)


def survey(model_types: list[str], root: Path, run: bool = True, echo: bool = True) -> list[Report]:
    """Scaffold each type into `root/<module>` and return the reports, printing each as it lands when `echo`."""
    reports = []
    for model_type in model_types:
        report = scaffold(model_type, root / model_type.replace("-", "_"), run=run)
        reports.append(report)
        if echo:
            print(report.text(), flush=True)
    return reports


def summary(reports: list[Report]) -> dict:
    """How many drafts pass unedited, which fail and on which suite methods, which could not be drafted."""
    failing = {r.model_type: r.failed for r in reports if r.failed}
    methods = Counter(name for r in reports for name in r.failed)
    return {
        "drafted": len(reports),
        "clean": sorted(r.model_type for r in reports if r.clean),
        "failing": failing,
        "failing_methods": dict(methods.most_common()),
        "not_drafted": {r.model_type: r.error for r in reports if r.error},
        "needs_person": {r.model_type: r.needs_person for r in reports if r.needs_person},
        # Whether every failing draft marked something as needing a person: its failures are then expected.
        "failing_unflagged": sorted(r.model_type for r in reports if r.failed and not r.needs_person),
    }


def write_summary(reports: list[Report], path: Path) -> dict:
    data = summary(reports)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return data
