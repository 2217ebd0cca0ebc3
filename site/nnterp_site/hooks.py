"""mkdocs hooks: the encyclopedia's pages, generated at build time from the shipped family modules.

`on_config` lists one nav entry per family under the encyclopedia, `on_files` renders
each page from `encyclopedia.extract` (the family module and its pinned checkpoint),
and `on_page_markdown` fills the encyclopedia index's table of families. A family
module added to `nnterp/families/` gets its page at the next build with no other edit.

`NNTERP_SITE_FAMILIES` (comma-separated model types) limits the build to some
families, for a quick local preview (`mkdocs serve`, not strict: links to the other pages dangle);
the strict build and the tests use them all.
"""

from __future__ import annotations

import linecache
import logging
import os
import sys
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nnterp_site import encyclopedia  # noqa: E402

log = logging.getLogger("mkdocs.plugins.nnterp_encyclopedia")

#: The index page's line that the table of families replaces.
TABLE_MARKER = "<!-- families -->"

_cache: dict[str, tuple[str, dict[str, Any]]] = {}


#: The families of the build in progress, read once in `on_config` so every step sees the same list.
_build: list[str] = []


def _families() -> list[str]:
    return list(_build)


def _read_families() -> list[str]:
    chosen = os.environ.get("NNTERP_SITE_FAMILIES")
    every = encyclopedia.families()
    if not chosen:
        return every
    wanted = {name.strip() for name in chosen.split(",") if name.strip()}
    return [model_type for model_type in every if model_type in wanted or encyclopedia.slug(model_type) in wanted]


def _refresh(model_types: list[str]) -> None:
    # `mkdocs serve` rebuilds on every edit: a page is extracted again only when what it reads changed.
    fingerprints = {model_type: encyclopedia.fingerprint(model_type) for model_type in model_types}
    stale = [t for t in model_types if t not in _cache or _cache[t][0] != fingerprints[t]]
    for model_type, data in encyclopedia.extract_many(stale).items():
        for problem in data["problems"]:
            log.info("encyclopedia page %s: %s", model_type, problem.splitlines()[0])
        _cache[model_type] = (fingerprints[model_type], data)


def _data(model_type: str) -> dict[str, Any]:
    if model_type not in _cache:
        _refresh([model_type])
    return _cache[model_type][1]


def _title(model_type: str) -> str:
    from nnterp.families import lookup_module

    try:
        title, _ = encyclopedia._title(lookup_module(model_type), model_type)
    except Exception:  # a module that does not import is still listed, under its type
        return model_type
    return title


def _register_built_blocks() -> None:
    """Make markdown-exec's blocks readable back as source, which an nnsight trace needs.

    nnsight runs a `with model.trace(...)` body by compiling the block's own source, read
    through `linecache`; markdown-exec compiles each block under a name like
    `<code block: n1>` that no file backs, so the block is put in the cache under that
    name before it runs (markdown-exec is pinned in the site's tools for this reason).
    """
    from markdown_exec._internal.formatters import python as formatter

    if getattr(formatter.exec_python, "_nnterp_registers", False):
        return
    run = formatter.exec_python

    def exec_python(code: str, filename: str, exec_globals: dict[str, Any] | None = None) -> None:
        linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
        run(code, filename, exec_globals)

    exec_python._nnterp_registers = True  # type: ignore[attr-defined]
    formatter.exec_python = exec_python


def on_config(config: Any) -> Any:
    _register_built_blocks()
    _build[:] = _read_families()
    entries = [{_title(t): f"{encyclopedia.SECTION}/{encyclopedia.slug(t)}.md"} for t in _families()]
    entries.sort(key=lambda entry: next(iter(entry)).lower())
    for index, item in enumerate(config["nav"] or []):
        if isinstance(item, dict) and "Encyclopedia" in item:
            section = item["Encyclopedia"]
            kept = [section] if isinstance(section, str) else list(section)
            config["nav"][index] = {"Encyclopedia": [*kept, *entries]}
    return config


@event_priority(100)  # before mkdocs-llmstxt lists the pages
def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    _refresh(_families())
    for model_type in _families():
        page = encyclopedia.render(_data(model_type))
        path = f"{encyclopedia.SECTION}/{encyclopedia.slug(model_type)}.md"
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=page))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != f"{encyclopedia.SECTION}/index.md" or TABLE_MARKER not in markdown:
        return markdown
    lines = ["| family | `model_type` | what it is | particular |", "| --- | --- | --- | --- |"]
    rows = []
    for model_type in _families():
        data = _data(model_type)
        summary = data.get("summary", "")
        rows.append(
            (
                (data.get("title") or model_type).lower(),
                f"| [{data.get('title') or model_type}]({encyclopedia.slug(model_type)}.md) | `{model_type}` | "
                f"{encyclopedia._cell(summary)} | {encyclopedia._cell(', '.join(data.get('tags', [])))} |",
            )
        )
    lines += [row for _, row in sorted(rows)]
    return markdown.replace(TABLE_MARKER, "\n".join(lines))
