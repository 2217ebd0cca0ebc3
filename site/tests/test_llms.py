"""`llms.txt` lists every page of the site as Markdown, and `llms-full.txt` holds each page's text."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _pages(built_site: Path) -> list[Path]:
    """Every page the build rendered (one index.html per page, the 404 page aside)."""
    return sorted(p for p in built_site.rglob("index.html") if p.parent.name not in ("search", "assets"))


def _markdown_of(built_site: Path, page: Path) -> Path:
    return page.with_suffix(".md")


def test_llms_txt_lists_every_page(built_site: Path) -> None:
    listing = (built_site / "llms.txt").read_text()
    links = set(re.findall(r"\]\((https?://[^)]+\.md)\)", listing))
    base = re.search(r"\((https?://[^)]+?/)index\.md\)", listing)
    assert base, "llms.txt does not list the home page"
    missing = []
    for page in _pages(built_site):
        relative = page.relative_to(built_site).with_suffix(".md").as_posix()
        if base.group(1) + relative not in links:
            missing.append(relative)
    assert not missing, f"llms.txt does not list {missing}"


def test_every_listed_page_is_served_as_markdown(built_site: Path) -> None:
    for page in _pages(built_site):
        markdown = _markdown_of(built_site, page)
        assert markdown.is_file(), f"{page.relative_to(built_site)} has no Markdown twin"
        assert markdown.read_text().strip(), f"{markdown} is empty"


def test_llms_full_holds_every_page(built_site: Path) -> None:
    full = (built_site / "llms-full.txt").read_text()
    for page in _pages(built_site):
        text = _markdown_of(built_site, page).read_text().strip()
        assert text in full, f"llms-full.txt does not hold the text of {page.relative_to(built_site)}"


def test_the_markdown_drops_the_drawing_keeps_the_tables(built_site: Path) -> None:
    page = built_site / "encyclopedia" / "llama" / "index.md"
    text = page.read_text()
    assert "nnterp-ency-data" not in text and '"schema"' not in text
    assert "layer_output" in text and "## Values, by host" in text


def test_every_source_page_is_listed(built_site: Path) -> None:
    """Each Markdown file under docs/ (and each generated family page) is in llms.txt's sections."""
    config = yaml.safe_load((DOCS.parent / "mkdocs.yml").read_text().replace("!!python", "#"))
    listing = (built_site / "llms.txt").read_text()
    assert config["site_url"] in listing
    for source in sorted(DOCS.rglob("*.md")):
        relative = source.relative_to(DOCS).as_posix()
        served = relative[: -len(".md")]
        served = served[: -len("index")] if served.endswith("index") else served + "/"
        assert f"{config['site_url']}{served}index.md" in listing, f"llms.txt does not list {relative}"
