"""The library sits below the harness: no module of nnterp imports nnterp_harness, and its CLI points there."""

import ast
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"
HARNESS = "nnterp_harness"


def _harness(name: str | None) -> bool:
    return name is not None and (name == HARNESS or name.startswith(f"{HARNESS}."))


def harness_imports(tree: ast.AST) -> list[int]:
    """The lines of `tree` that import the harness: `import`, `from ... import`, or a call naming it as a string."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found = any(_harness(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found = node.level == 0 and _harness(node.module)
        elif isinstance(node, ast.Call):
            # importlib.import_module("nnterp_harness...") and __import__("nnterp_harness...")
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            first = node.args[0] if node.args else None
            found = (
                name in ("import_module", "__import__")
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and _harness(first.value)
            )
        else:
            found = False
        if found:
            lines.append(node.lineno)
    return sorted(lines)


def test_no_library_module_imports_the_harness():
    files = sorted(SOURCE.rglob("*.py"))
    assert len(files) > 100, f"found only {len(files)} modules under {SOURCE}"
    offenders = [
        f"{path.relative_to(SOURCE)}:{line}"
        for path in files
        for line in harness_imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    ]
    assert offenders == [], f"nnterp imports {HARNESS} (the harness depends on the library, never back): {offenders}"


def test_the_check_sees_every_way_of_importing_the_harness():
    text = (
        '"""Mentions nnterp_harness in words only."""\n'
        "import nnterp_harness\n"
        "from nnterp_harness.entry import Entry\n"
        "import importlib\n"
        "def f():\n"
        "    import nnterp_harness.checkpoints as c\n"
        "    return importlib.import_module('nnterp_harness.suite')\n"
        "from nnterp_harnessing import x\n"
        "from .nnterp_harness import y\n"
    )
    assert harness_imports(ast.parse(text)) == [2, 3, 6, 7]


def test_the_scaffold_command_names_the_harness(tmp_path):
    out = str(tmp_path / "q")
    result = subprocess.run(
        [sys.executable, "-m", "nnterp", "scaffold", "qwen3", "--out", out, "--no-run"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"python -m nnterp_harness.scaffold qwen3 --out {out} --no-run" in result.stderr, result.stderr
    assert "pip install ./harness" in result.stderr, result.stderr
    assert not (tmp_path / "q").exists()
