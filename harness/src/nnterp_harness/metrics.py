"""The maintainer's measurements of the tree: how families are written and how the harness is built.

    python -m nnterp_harness.metrics [ROOT]

prints, for the checkout at ROOT (default: the repository this file lies in), the
numbers `harness/README.md` records: family module lines (median and p90), family
classes whose body is a docstring only, families importing families and the deepest
such chain, suite test files that are declarations only, and the lines of the
checkpoint entries. It reads the files as text (`ast`), so it imports nothing of the
tree it measures.
"""

from __future__ import annotations

import argparse
import ast
import statistics
from collections.abc import Iterator
from pathlib import Path

FAMILIES = Path("packages/nnterp/src/nnterp/families")
SUITES = Path("harness/families")
ENTRIES = Path("harness/src/nnterp_harness/entries")
ENTRY_DATA = Path("harness/src/nnterp_harness/data/entries.yaml")


def _modules(folder: Path) -> Iterator[Path]:
    return (path for path in sorted(folder.glob("*.py")) if not path.name.startswith("_"))


def _p90(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def _is_docstring_only(node: ast.ClassDef) -> bool:
    body = [stmt for stmt in node.body if not isinstance(stmt, ast.Pass)]
    return len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)


def _family_imports(tree: ast.Module, names: set[str]) -> set[str]:
    """The family modules a family module imports, by module name."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module
            if module == "nnterp.families" or (node.level == 1 and not module):
                found.update(alias.name for alias in node.names if alias.name in names)
            elif module.startswith("nnterp.families."):
                found.add(module.split(".")[2])
            elif node.level == 1:
                found.add(module.split(".")[0])
    return found & names


def _depth(graph: dict[str, set[str]]) -> tuple[int, list[str]]:
    """The longest import chain between families (in modules, the importer counted), and one such chain."""
    memo: dict[str, list[str]] = {}

    def chain(name: str, seen: frozenset[str]) -> list[str]:
        if name in memo:
            return memo[name]
        best = [name]
        for imported in sorted(graph.get(name, ())):
            if imported not in seen:
                candidate = [name, *chain(imported, seen | {imported})]
                best = max(best, candidate, key=len)
        memo[name] = best
        return best

    longest = max((chain(name, frozenset({name})) for name in graph), key=len, default=[])
    return len(longest), longest


def _declarations_only(tree: ast.Module, stacked: bool) -> bool:
    """A suite file whose classes hold class attributes only (no method, no function).

    With `stacked` false, a class that lists a check class (``...Checks``) among its
    bases by hand does not count either.
    """
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        if isinstance(node, ast.ClassDef):
            if any(isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) for stmt in node.body):
                return False
            if not stacked and any(isinstance(base, ast.Name) and base.id.endswith("Checks") for base in node.bases):
                return False
    return True


def measure(root: Path) -> dict[str, object]:
    """The numbers for the checkout at `root`."""
    families = {path.stem: path for path in _modules(root / FAMILIES) if path.stem != "default"}
    trees = {name: ast.parse(path.read_text()) for name, path in families.items()}
    lines = [len(path.read_text().splitlines()) for path in families.values()]
    classes = [node for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    empty = [node for node in classes if _is_docstring_only(node)]
    shadowing = [
        node for node in classes if any(isinstance(base, ast.Name) and base.id == node.name for base in node.bases)
    ]
    graph = {name: _family_imports(tree, set(families)) - {name} for name, tree in trees.items()}
    depth, chain = _depth(graph)
    suites = list(_modules(root / SUITES))
    parsed = [ast.parse(path.read_text()) for path in suites]
    entry_files = [
        path for path in sorted((root / ENTRIES).rglob("*")) if path.is_file() and "__pycache__" not in str(path)
    ]
    return {
        "family modules": len(families),
        "family module lines, median": int(statistics.median(lines)),
        "family module lines, p90": _p90(lines),
        "family classes": len(classes),
        "family classes with no body": len(empty),
        "family classes shadowing their base's name": len(shadowing),
        "families importing families": sum(1 for imported in graph.values() if imported),
        "deepest family import chain": f"{depth} ({' -> '.join(chain)})",
        "suite test files": len(suites),
        "suite test files with no method": sum(_declarations_only(tree, stacked=True) for tree in parsed),
        "suite test files that are declarations only": sum(_declarations_only(tree, stacked=False) for tree in parsed),
        "check classes stacked by hand in suite files": sum(
            1
            for tree in parsed
            for node in tree.body
            if isinstance(node, ast.ClassDef)
            for base in node.bases
            if isinstance(base, ast.Name) and base.id.endswith("Checks")
        ),
        "checkpoint entry modules": len(entry_files),
        "checkpoint entry lines (Python)": sum(len(path.read_text().splitlines()) for path in entry_files),
        "checkpoint entry lines (data)": (
            len((root / ENTRY_DATA).read_text().splitlines()) if (root / ENTRY_DATA).is_file() else 0
        ),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m nnterp_harness.metrics", description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parents[3]))
    args = parser.parse_args(argv)
    for name, value in measure(Path(args.root)).items():
        print(f"{name:48} {value}")


if __name__ == "__main__":
    main()
