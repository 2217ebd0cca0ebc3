"""Shared fixtures of the site's tests: the built site, served on the loopback interface.

`NNTERP_SITE_DIR` names a site the session has already built (the `site` nox session
builds it once); without it the first test that needs the site builds it strictly
into a temporary folder.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest

SITE = Path(__file__).resolve().parents[1]
REPO = SITE.parent
sys.path.insert(0, str(SITE))

for key, value in {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "CUDA_VISIBLE_DEVICES": "", "TOKENIZERS_PARALLELISM": "false"}.items():
    os.environ.setdefault(key, value)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site's folder."""
    given = os.environ.get("NNTERP_SITE_DIR")
    if given:
        path = Path(given)
        if not (path / "index.html").is_file():
            pytest.fail(f"NNTERP_SITE_DIR={given} holds no built site (no index.html)")
        return path
    out = tmp_path_factory.mktemp("site") / "out"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("NNTERP_SITE_FAMILIES", None)
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(SITE / "mkdocs.yml"), "-d", str(out)],
        check=True,
        env=env,
    )
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> str:
    """The built site served over HTTP on 127.0.0.1 (search runs in a web worker, which file:// refuses)."""
    handler = functools.partial(_Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
