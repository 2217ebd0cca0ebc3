"""mkdocs-llmstxt's preprocess: drop what only a browser uses before a page becomes Markdown.

The encyclopedia's drawing and its embedded data are for the page's JavaScript; the
tables beside them carry the same facts as text. Collapsed blocks (a tiny checkpoint's
config.json) stay on the HTML page only.
"""

from __future__ import annotations

from typing import Any


def preprocess(soup: Any, output: str) -> None:
    for tag in soup.find_all("script"):
        tag.decompose()
    for tag in soup.find_all("div", class_="nnterp-ency"):
        tag.decompose()
    # A checkpoint's config.json (a collapsed block on the page) is not what a reader of the text needs.
    for tag in soup.find_all("details"):
        tag.decompose()
