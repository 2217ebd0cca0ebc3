"""How the families import one another, read from their source with `ast`.

A family reuses another's declarations through a named, public declaration (`RENAME`,
`ENVOYS`, a class), never through its private names; a chain of family imports is two
imports long at most (a wrapper imports its text family, which may import the family whose
classes it shares, and no further); and a family imports
no transformers package of a type that has a family module of its own, unless that
type is its own, or one it composes (imports the family of), or, for a text type
transformers ships only inside its wrapper's package (Step-3.5's in `step3p7`), the
wrapper that composes it.
"""

import ast
from functools import cache
from pathlib import Path

FAMILIES = Path(__file__).resolve().parents[1] / "src" / "nnterp" / "families"
PACKAGE = "nnterp.families"
DEEPEST = 2

#: Families that import another type's transformers package, where that type has a family of
#: its own, for its vision tower only, or, for a type transformers builds from another type's
#: package (GLM-GA from GLM-4.6V's), for its model classes: family to the packages.
TOWERS = {
    "aria": {"idefics3"},
    "glm46v": {"glm4v"},
    "glmga": {"glm4v", "glm46v"},
    "hyperclovax_vision_v2": {"qwen2_5_vl"},
    "inkling2_loop": {"inkling2"},
}

#: Families whose longest chain is still more than `DEEPEST` imports long. Only shrinks: a family that becomes
#: shallow fails `test_the_deeper_chains_are_listed` until it leaves the set.
DEEPER: frozenset[str] = frozenset()


def modules() -> dict[str, ast.Module]:
    """Every family module's parsed source, by module name (`default` included)."""
    return {
        path.stem: ast.parse(path.read_text(), filename=str(path))
        for path in sorted(FAMILIES.glob("*.py"))
        if path.stem != "__init__"
    }


TREES = modules()


def _family(module: str | None, level: int) -> str | None:
    """The family a `from <module> import` statement names, or `None`."""
    if level == 1:
        return module.split(".")[0] if module else None
    if module and module.startswith(f"{PACKAGE}."):
        return module.split(".")[2]
    return None


@cache
def imports(name: str) -> dict[str, set[str]]:
    """The families `name` imports, each with the names it takes from it (an empty set for the module itself)."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.ImportFrom):
            family = _family(node.module, node.level)
            if family is not None:
                found.setdefault(family, set()).update(alias.name for alias in node.names)
            elif (node.level == 1 and not node.module) or (node.level == 0 and node.module == PACKAGE):
                for alias in node.names:
                    if alias.name in TREES:
                        found.setdefault(alias.name, set())
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(f"{PACKAGE}."):
                    found.setdefault(alias.name.split(".")[2], set())
    found.pop(name, None)
    return {family: names for family, names in found.items() if family in TREES}


def attributes(name: str) -> set[tuple[str, str]]:
    """`(family, attribute)` for every `family.attribute` that `name` reads off a family module it imported whole."""
    whole = {family for family, names in imports(name).items() if not names}
    return {
        (node.value.id, node.attr)
        for node in ast.walk(TREES[name])
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in whole
    }


@cache
def depth(name: str) -> int:
    """How many imports the longest chain of family imports from `name` takes (0 for a family that imports none)."""
    return max((1 + depth(family) for family in imports(name)), default=0)


def transformers_packages(name: str) -> set[str]:
    """The `transformers.models.<package>` packages `name` imports from."""
    found = set()
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            parts = (node.module or "").split(".")
        elif isinstance(node, ast.Import):
            parts = [alias.name.split(".") for alias in node.names][0]
        else:
            continue
        if parts[:2] == ["transformers", "models"] and len(parts) > 2:
            found.add(parts[2])
    return found


def test_the_source_has_the_families():
    assert {"llama", "qwen2", "idefics3", "llava", "default"} <= set(TREES)
    assert imports("idefics3") == {"llama": set()}


def test_no_family_imports_a_private_name_of_another():
    private = sorted(
        f"{name} takes {family}.{item}"
        for name in TREES
        for family, names in imports(name).items()
        for item in names
        if item.startswith("_")
    )
    private += sorted(
        f"{name} reads {family}.{item}" for name in TREES for family, item in attributes(name) if item.startswith("_")
    )
    assert not private


def test_a_chain_of_family_imports_is_two_imports_long_at_most():
    deep = {name: depth(name) for name in TREES if depth(name) > DEEPEST and name not in DEEPER}
    assert not deep, f"chains longer than {DEEPEST} imports: {deep}"


def test_the_deeper_chains_are_listed():
    assert {name for name in DEEPER if depth(name) <= DEEPEST} == set()


def test_a_family_imports_no_other_familys_transformers_package():
    """The classes of a type with its own family belong to that module, not to one that hosts them."""
    wrong = []
    for name in TREES:
        packages = transformers_packages(name)
        for package in packages - {name}:
            if package not in TREES or package in TOWERS.get(name, set()):
                continue
            composes = package in imports(name)
            # A text type with no package of its own lives in its wrapper's.
            inside_its_wrapper = name not in packages and name in imports(package)
            if not (composes or inside_its_wrapper):
                wrong.append(f"{name} imports transformers.models.{package}")
    assert not wrong
