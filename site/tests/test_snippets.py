"""Every Python snippet on every page runs, in page order, and what a page shows a snippet print is what it prints.

A page's snippets share one namespace, top to bottom, as a reader running them in turn
would. A printed result is written under its `print(...)` as `#> ` lines, which
pytest-examples checks. The snippets run from a temporary working directory, so a
page that names a checkpoint by a path relative to the repository fails here: pages
load the tiny checkpoints through `nnterp.inspect.tiny_checkpoint`.

A block fenced `exec="on"` is run by markdown-exec when the site is built and its
output (a figure's SVG) goes into the page. Such a block runs alone there, so here it
runs in a namespace of its own, and what it prints is the page's content, not `#>` lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_examples import CodeExample, EvalExample, find_examples

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def _examples(page: Path) -> list[CodeExample]:
    return [example for example in find_examples(page) if example.prefix_settings().get("test") != "skip"]


def _built(example: CodeExample) -> bool:
    """Whether markdown-exec runs the block at build time."""
    return example.prefix_settings().get("exec") == "on"


@pytest.mark.parametrize("page", [p for p in PAGES if _examples(p)], ids=lambda p: str(p.relative_to(DOCS)))
def test_page_snippets_run(page: Path, eval_example: EvalExample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    eval_example.set_config(line_length=120)
    namespace = None
    for example in _examples(page):
        try:
            if _built(example):
                eval_example.run(example)
            elif eval_example.update_examples:  # `pytest --update-examples` writes what the snippets print
                namespace = eval_example.run_print_update(example, module_globals=namespace)
            else:
                namespace = eval_example.run_print_check(example, module_globals=namespace)
        except BaseException as error:  # pytest cannot render the example's rewritten traceback: say it plainly
            raise AssertionError(
                f"{page.relative_to(DOCS)}, the snippet at line {example.start_line}: {type(error).__name__}: {error}"
            ) from None


def test_skipped_snippets_are_few() -> None:
    """A snippet kept out of the run says why in the fence (`test="skip"` beside a reason): at most a handful site-wide."""
    skipped = [
        f"{page.relative_to(DOCS)}:{example.start_line}"
        for page in PAGES
        for example in find_examples(page)
        if example.prefix_settings().get("test") == "skip"
    ]
    assert len(skipped) <= 6, skipped


def test_built_figures_print_svg(capsys: pytest.CaptureFixture[str], eval_example: EvalExample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A block rendered into the page as HTML prints one SVG figure and nothing else."""
    monkeypatch.chdir(tmp_path)
    blocks = [example for page in PAGES for example in _examples(page) if _built(example)]
    assert blocks, "no page draws a figure at build time"
    for example in blocks:
        assert example.prefix_settings().get("html") == "1", f"{example.path}:{example.start_line} renders as HTML"
        capsys.readouterr()
        eval_example.run(example)
        printed = capsys.readouterr().out.strip()
        assert printed.startswith("<svg") and printed.endswith("</svg>"), f"{example.path}:{example.start_line} prints {printed[:80]!r}"
