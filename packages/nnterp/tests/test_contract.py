"""The family contract: one declared list of the names a family defines, held by lookup, register and family=."""

from __future__ import annotations

import ast
import types
from pathlib import Path

import pytest

import nnterp
from nnterp import contract, families, standardized
from nnterp.contract import DECLARATIONS, FamilyContractError
from nnterp.families import default, llama

ROOT = Path(__file__).resolve().parents[3]
SOURCES = [ROOT / "packages" / "nnterp" / "src", ROOT / "packages" / "nnterp-vllm" / "src"]


def _root_overrides() -> dict[str, str]:
    """The root attributes a family's module-level name replaces, read off the root classes: name to kind."""
    kinds = {
        standardized.StandardizedProperty: "size",
        standardized.StandardizedCapability: "method",
        standardized._FamilyValue: "value",
    }
    found = {}
    for cls in standardized.StandardizedTransformer.__mro__:
        for name, attribute in vars(cls).items():
            for kind_class, kind in kinds.items():
                if isinstance(attribute, kind_class):
                    found.setdefault(name, kind)
    return found


def _names_read_off_families() -> set[str]:
    """Every constant name the engines read with `getattr(<...family>, "NAME", ...)`."""
    read = set()
    for source in SOURCES:
        for path in source.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "getattr"):
                    continue
                if len(node.args) < 2 or not isinstance(node.args[1], ast.Constant):
                    continue
                target = ast.unparse(node.args[0])
                if target.endswith("family") and isinstance(node.args[1].value, str):
                    read.add(node.args[1].value)
    return read - {"__name__", "__spec__"}


def test_every_root_override_is_declared_with_its_kind():
    overrides = _root_overrides()
    declared = {name: d.kind for name, d in DECLARATIONS.items() if d.kind in ("size", "method", "value")}
    assert overrides == declared


def test_every_name_an_engine_reads_off_a_family_is_declared():
    read = _names_read_off_families()
    assert {"ROOT_SCATTER", "RESENDS_IDS", "TEXT_LOAD_KWARGS"} <= read  # the scan finds what it should
    assert read <= set(DECLARATIONS), f"read off families but not declared: {sorted(read - set(DECLARATIONS))}"


def test_every_shipped_family_keeps_the_contract():
    for module in families.all_families().values():
        contract.validate(module)  # raises, naming the family and the names, on a breach
    contract.validate(default)


@pytest.mark.parametrize(
    "page", ["site/docs/developing/adding-a-family.md", "skills/nnterp-extending/SKILL.md"], ids=["page", "skill"]
)
def test_the_docs_list_every_declared_name(page):
    text = (ROOT / page).read_text()
    missing = [name for name in DECLARATIONS if f"`{name}`" not in text]
    assert not missing, f"{page} does not list {missing}"


def test_a_misspelt_name_is_refused_naming_the_one_it_resembles():
    family = types.SimpleNamespace(RENAME={}, ENVOYS={}, projet_on_vocab=lambda model, hidden: hidden)
    with pytest.raises(FamilyContractError) as error:
        families.register(family, "misspelt_contract_type")
    message = str(error.value)
    assert "'projet_on_vocab'" in message and "did you mean 'project_on_vocab'?" in message
    assert "RENAME, ENVOYS" in message  # the valid names are listed
    assert "misspelt_contract_type" not in families.REGISTRY


def test_a_declared_name_of_the_wrong_type_is_refused():
    family = types.SimpleNamespace(RENAME={}, ENVOYS={}, ROOT_SCATTER=1, intermediate_size=64)
    with pytest.raises(FamilyContractError, match="'ROOT_SCATTER' must be a bool") as error:
        contract.validate(family)
    assert "'intermediate_size' must be a function of the model" in str(error.value)


def test_a_name_read_on_another_engine_is_refused_on_this_one():
    family = types.SimpleNamespace(RENAME={}, ENVOYS={}, BACKEND=True)
    with pytest.raises(FamilyContractError, match="'BACKEND' is read only on the vllm engine"):
        contract.validate(family, "transformers")
    contract.validate(family, "vllm")


def test_a_module_family_may_hold_classes_imports_and_private_helpers(tmp_path, monkeypatch):
    (tmp_path / "contract_probe_family.py").write_text(
        "from nnterp.components import Layer\n"
        "from nnterp.families.llama import RENAME as _LLAMA_RENAME\n"
        "import torch\n\n"
        "_SCALE = 2.0\n\n"
        "def _helper(x):\n    return x\n\n"
        "class Block(Layer):\n    '''A block that halves nothing.'''\n\n    scale = _SCALE\n\n"
        "RENAME = dict(_LLAMA_RENAME)\n"
        "ENVOYS = {'layers.*': Block}\n"
        "def intermediate_size(model):\n    return 64\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import contract_probe_family

    contract.validate(contract_probe_family)
    (tmp_path / "contract_probe_helper.py").write_text(
        "RENAME = {}\nENVOYS = {}\nHALF = 0.5\n\ndef halve(x):\n    return x * HALF\n"
    )
    import contract_probe_helper

    with pytest.raises(FamilyContractError) as error:
        contract.validate(contract_probe_helper)
    assert "'HALF'" in str(error.value) and "'halve'" in str(error.value) and "(_halve)" in str(error.value)


def test_family_argument_is_held_to_the_contract(path):
    family = types.SimpleNamespace(RENAME=llama.RENAME, ENVOYS=llama.ENVOYS, num_layer=lambda model: 2)
    with pytest.raises(FamilyContractError, match="did you mean 'num_layers'"):
        nnterp.StandardizedTransformer(path("llama"), family=family)
