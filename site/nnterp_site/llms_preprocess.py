"""mkdocs-llmstxt's preprocess: drop what only a browser uses before a page becomes Markdown.

The encyclopedia's drawing and its embedded data are for the page's JavaScript; the
tables beside them carry the same facts as text.
"""

from __future__ import annotations

from typing import Any


def preprocess(soup: Any, output: str) -> None:
    for tag in soup.find_all("script"):
        tag.decompose()
    for tag in soup.find_all("div", class_="nnterp-ency"):
        tag.decompose()
