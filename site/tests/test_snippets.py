"""Every Python snippet on every page runs, in page order, and what a page shows a snippet print is what it prints.

A page's snippets share one namespace, top to bottom, as a reader running them in turn
would. A printed result is written under its `print(...)` as `#> ` lines, which
pytest-examples checks. The snippets run from a temporary working directory, so a
page that names a checkpoint by a path relative to the repository fails here: pages
load the tiny checkpoints through `nnterp.inspect.tiny_checkpoint`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_examples import CodeExample, EvalExample, find_examples

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def _examples(page: Path) -> list[CodeExample]:
    return [example for example in find_examples(page) if example.prefix_settings().get("test") != "skip"]


@pytest.mark.parametrize("page", [p for p in PAGES if _examples(p)], ids=lambda p: str(p.relative_to(DOCS)))
def test_page_snippets_run(page: Path, eval_example: EvalExample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    eval_example.set_config(line_length=120)
    namespace = None
    for example in _examples(page):
        try:
            if eval_example.update_examples:  # `pytest --update-examples` writes what the snippets print
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
