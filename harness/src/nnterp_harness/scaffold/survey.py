"""Scaffold many types at once: the drafts for a list of model types, and a summary of how far each got."""

from __future__ import annotations

import json
import multiprocessing
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from . import Report, scaffold


def text_type(model_type: str) -> str | None:
    """The model type of `model_type`'s text config (a wrapper's text model), or `None` where it is its own."""
    from transformers import AutoConfig

    try:
        text = AutoConfig.for_model(model_type).get_text_config()
    except Exception:  # a config that cannot be built with its defaults names no text model
        return None
    inner = getattr(text, "model_type", None)
    return inner if inner and inner != model_type else None


def uncovered(kind: str = "causal-lm") -> list[str]:
    """The model types of the installed transformers that no family serves, from one auto map.

    `kind` is ``"causal-lm"`` (`MODEL_FOR_CAUSAL_LM_MAPPING_NAMES`, the types the scaffold
    drafts) or ``"masked-lm"`` (`MODEL_FOR_MASKED_LM_MAPPING_NAMES`, the encoders). A type is
    served by a family of its own name, or, for a wrapper, by the family of its text config's
    model type (the one `StandardizedTransformer` picks).
    """
    from transformers.models.auto import modeling_auto

    from nnterp.families import known

    maps = {
        "causal-lm": modeling_auto.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        "masked-lm": modeling_auto.MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    }
    if kind not in maps:
        raise ValueError(f"uncovered(kind={kind!r}): the kinds are {sorted(maps)}")
    shipped = {name.replace("-", "_") for name in known()}

    def served(model_type: str) -> bool:
        if model_type.replace("-", "_") in shipped:
            return True
        inner = text_type(model_type)
        return inner is not None and inner.replace("-", "_") in shipped

    return sorted(model_type for model_type in maps[kind] if not served(model_type))


def _one(model_type: str, root: Path, run: bool) -> Report:
    return scaffold(model_type, root / model_type.replace("-", "_"), run=run)


def survey(
    model_types: list[str],
    root: Path,
    run: bool = True,
    echo: bool = True,
    jobs: int = 1,
    landed: Callable[[list[Report]], None] | None = None,
) -> list[Report]:
    """Scaffold each type into `root/<module>` and return the reports in the order of `model_types`.

    `jobs` drafts run at once, each worker a process of its own; each report is
    printed as it lands when `echo`, and `landed` is called with the reports so far.
    """
    reports: dict[str, Report] = {}

    def land(report: Report) -> None:
        reports[report.model_type] = report
        if echo:
            print(report.text(), flush=True)
        if landed is not None:
            landed([reports[t] for t in model_types if t in reports])

    if jobs <= 1:
        for model_type in model_types:
            land(_one(model_type, root, run))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = [pool.submit(_one, model_type, root, run) for model_type in model_types]
            for future in as_completed(futures):
                land(future.result())
    return [reports[t] for t in model_types]


def summary(reports: list[Report]) -> dict:
    """How many drafts pass unedited, which fail and on which suite methods, which could not be drafted."""
    failing = {r.model_type: r.failed for r in reports if r.failed}
    methods = Counter(name for r in reports for name in r.failed)
    return {
        "drafted": len(reports),
        "clean": sorted(r.model_type for r in reports if r.clean),
        # Clean drafts that mark nothing as needing a person: complete as written.
        "clean_unmarked": sorted(r.model_type for r in reports if r.clean and not r.needs_person),
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
