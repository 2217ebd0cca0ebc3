"""`python -m nnterp_harness.scaffold <model_type>`: a new architecture drafted into a family, a checkpoint and a suite file.

`scaffold(model_type, out)` reads the installed transformers only: a tiny instance
built from the type's config (`analyze`) and the source of its forwards. It writes
into `out`:

- `<module>.py`, the draft family module in the house style;
- `entry_<module>.py`, the tiny-checkpoint entry (it belongs in
  `harness/src/nnterp_harness/entries/<module>.py`);
- `test_<module>.py`, a `FamilySuite` file that loads the draft from beside it;
- `tiny_checkpoints/<module>/`, the checkpoint built from the entry;

then runs the suite on the draft and returns a `Report`: the suite's passes and
failures, and what the draft itself says needs a person, naming the forward lines
it could not classify. The draft is a starting point that a person reads and owns.
It lives in the harness because the checkpoint and the suite it drafts are the
harness's: `nnterp` itself never imports it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

from nnterp.families import module_name

from ..checkpoints import build_entry
from ..entry import Entry
from .analyze import Analysis, analyze
from .render import entry_module, family_module, test_module


@dataclass
class Report:
    """What one scaffold run wrote and found."""

    model_type: str
    out: Path
    needs_person: list[str] = field(default_factory=list)
    passed: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)
    error: str | None = None
    ran: bool = True

    @property
    def clean(self) -> bool:
        """The draft passes the whole suite with no edit."""
        return self.error is None and not self.failed and self.passed > 0

    def text(self) -> str:
        """The printed report: the suite's counts, the failing methods as needing a person, and what the draft marks.

        A failing method is reported as needing a person when the draft marks
        something it could not place; with nothing marked, the failure is the scaffold's own gap.
        """
        lines = [f"scaffold {self.model_type} -> {self.out}"]
        if self.error:
            lines.append(f"  could not draft or run: {self.error}")
        elif not self.ran:
            lines.append("  FamilySuite on the draft: not run (the checkpoint is not built either)")
        else:
            lines.append(
                f"  FamilySuite on the draft: {self.passed} passed, {len(self.failed)} failed, {self.skipped} skipped"
            )
            if self.failed and self.needs_person:
                lines.append("  needs a person, failing suite methods:")
            elif self.failed:
                lines.append("  failed with nothing marked for a person (a gap in the scaffold):")
            lines += [f"    {name}" for name in self.failed]
        if self.needs_person:
            lines.append("  needs a person, what the draft could not place:")
            lines += [f"    - {item}" for item in self.needs_person]
        elif not self.error:
            lines.append("  needs a person: nothing the scaffold could see")
        return "\n".join(lines)


def _where_it_broke(error: Exception) -> list[str]:
    """The transformers line a tiny build of the type failed at, for a person to read: its config wants other sizes."""
    import traceback

    chain: list[BaseException] = []
    cause: BaseException | None = error
    while cause is not None and cause not in chain:  # a validation error re-raised holds the line in its cause
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    frames = [
        frame
        for link in chain
        for frame in traceback.extract_tb(link.__traceback__)
        if f"{os.sep}transformers{os.sep}models{os.sep}" in frame.filename
        and f"{os.sep}models{os.sep}auto{os.sep}" not in frame.filename
    ]
    if not frames:
        return []
    frame = frames[-1]
    where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name} line {frame.lineno}: {frame.line!r}"
    return [
        f"the tiny config the scaffold shrinks to does not build ({where}): the sizes it sets do not fit this "
        "type, and a person picks the checkpoint's sizes"
    ]


def write(analysis: Analysis, out: Path) -> dict[str, Path]:
    """Write the draft's three files into `out`; returns them by kind."""
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "family": out / f"{analysis.module_name}.py",
        "entry": out / f"entry_{analysis.module_name}.py",
        "test": out / f"test_{analysis.module_name}.py",
    }
    files["family"].write_text(family_module(analysis), encoding="utf-8")
    files["entry"].write_text(entry_module(analysis), encoding="utf-8")
    files["test"].write_text(test_module(analysis), encoding="utf-8")
    return files


def build_checkpoint(analysis: Analysis, out: Path) -> Path:
    """Build the draft's tiny checkpoint under `out/tiny_checkpoints/`."""
    return build_entry(Entry(analysis.module_name, analysis.model_type, analysis.overrides), out / "tiny_checkpoints")


#: The text the suite traces; a checkpoint whose first attention saturates on it is rebuilt with a smaller init.
PROMPT = "The Eiffel Tower is in"


def saturated(checkpoint: Path) -> bool:
    """Whether the checkpoint's first attention pattern is one-hot somewhere on `PROMPT`.

    A probability that rounds to one cannot grow, so the suite's edits of the scores
    would not show; such a checkpoint is degenerate for the suite, not the draft wrong.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    try:
        model = AutoModelForCausalLM.from_pretrained(checkpoint, attn_implementation="eager").eval()
        ids = AutoTokenizer.from_pretrained(checkpoint)(PROMPT, return_tensors="pt")["input_ids"]
        with torch.no_grad():
            patterns = model(input_ids=ids, output_attentions=True).attentions
    except Exception:  # a model without eager patterns to hand back is not probed
        return False
    first = next((p for p in patterns or () if isinstance(p, torch.Tensor) and p.dim() == 4), None)
    return first is not None and bool((first[..., 1:, :] > 1 - 1e-6).any())


def run_suite(test_file: Path, report: Report) -> None:
    """Run the draft's suite in a fresh process and fill `report` with its results."""
    junit = test_file.parent / "suite.xml"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(test_file),
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(test_file.parent),
            f"--junitxml={junit}",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=test_file.parent,
    )
    if not junit.is_file():
        report.error = "the suite did not run (no junit report)"
        return
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        outcome = {child.tag for child in case}
        if outcome & {"failure", "error"}:
            report.failed.append(case.get("name", "?"))
        elif "skipped" in outcome:
            report.skipped += 1
        else:
            report.passed += 1


def scaffold(model_type: str, out: str | Path | None = None, run: bool = True) -> Report:
    """Draft a family for `model_type` into `out` (default `./scaffold/<module>`), build its checkpoint, run its suite."""
    target = Path(out) if out is not None else Path.cwd() / "scaffold" / module_name(model_type)
    report = Report(model_type, target)
    try:
        analysis = analyze(model_type)
    except Exception as error:  # a type that does not build from a tiny config is reported, not raised
        report.error = f"{type(error).__name__}: {error}"
        report.needs_person = list(getattr(error, "needs_person", None) or _where_it_broke(error))
        return report
    report.needs_person = list(analysis.needs_person)
    files = write(analysis, target)
    if not run:
        report.ran = False
        return report
    try:
        checkpoint = build_checkpoint(analysis, target)
        for _ in range(3):
            if "initializer_range" not in analysis.overrides or not saturated(checkpoint):
                break
            # Scores large enough to round a probability to one: smaller weights, the same shapes.
            analysis.overrides["initializer_range"] = round(analysis.overrides["initializer_range"] * 0.6, 4)
            files = write(analysis, target)
            checkpoint = build_checkpoint(analysis, target)
    except Exception as error:
        report.error = f"building the checkpoint failed: {type(error).__name__}: {error}"
        return report
    run_suite(files["test"], report)
    return report


__all__ = ["Report", "analyze", "scaffold"]
