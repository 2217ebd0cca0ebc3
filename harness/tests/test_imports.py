"""The harness's modules import one another without a cycle: a contract module never imports the suite that chooses it."""

import ast
from pathlib import Path

PACKAGE = "nnterp_harness"
SOURCE = Path(__file__).resolve().parents[1] / "src" / PACKAGE


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SOURCE.rglob("*.py")) if "__pycache__" not in path.parts}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that module `name` imports, at its top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import sub` imports module `pkg.sub` where there is one, else names of `pkg`.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in known and target != name)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imported(name, path, set(found)) for name, path in found.items()}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle of `edges`, as the modules along it (the first repeated at the end), or `[]`."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(name: str) -> list[str]:
        state[name] = "open"
        path.append(name)
        for target in sorted(edges[name]):
            if state.get(target) == "open":
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        state[name] = "done"
        path.pop()
        return []

    for name in sorted(edges):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return []


def test_the_graph_holds_the_contract_modules():
    edges = graph()
    assert {f"{PACKAGE}.suite", f"{PACKAGE}.family", f"{PACKAGE}.helpers", f"{PACKAGE}.mixture"} <= set(edges)
    assert f"{PACKAGE}.family" in edges[f"{PACKAGE}.suite"]
    assert f"{PACKAGE}.helpers" in edges[f"{PACKAGE}.mixture"]


def test_a_cycle_is_found():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_the_harness_modules_import_without_a_cycle():
    found = cycle(graph())
    assert not found, f"the harness modules import one another in a cycle: {' -> '.join(found)}"
