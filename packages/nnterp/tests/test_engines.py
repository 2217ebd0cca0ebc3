"""Engines other than transformers come from the `nnterp.engines` entry points, and a missing one says what to install."""

import importlib.metadata

import pytest

from nnterp import families

TOY = importlib.metadata.EntryPoint(name="toy", value="toy_engine_families", group=families.ENGINE_GROUP)


@pytest.fixture
def declared(monkeypatch):
    """Make `entries` the whole `nnterp.engines` group of this process."""

    def declare(*entries):
        monkeypatch.setattr(
            importlib.metadata,
            "entry_points",
            lambda group=None: [entry for entry in entries if entry.group == group],
        )

    return declare


@pytest.fixture
def toy_package(tmp_path, monkeypatch):
    package = tmp_path / "toy_engine_families"
    package.mkdir()
    (package / "__init__.py").write_text('"""A toy engine\'s families."""\n')
    (package / "llama.py").write_text("RENAME = {}\nENVOYS = {}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return package


def test_an_engine_declared_by_an_entry_point_serves_its_package(declared, toy_package):
    declared(TOY)
    assert families.installed_engines() == {"transformers": "nnterp.families", "toy": "toy_engine_families"}
    assert families.known("toy") == ["llama"]
    assert families.has_family("llama", "toy") and not families.has_family("gpt2", "toy")
    assert families.lookup_module("llama", "toy").__name__ == "toy_engine_families.llama"
    with pytest.raises(families.UnsupportedFamily, match=r"no standardization for model_type 'gpt2' on toy"):
        families.lookup("gpt2", engine="toy")


def test_no_entry_point_replaces_the_transformers_engine(declared, toy_package):
    declared(importlib.metadata.EntryPoint(name="transformers", value="toy_engine_families", group=TOY.group))
    assert families.installed_engines() == {"transformers": "nnterp.families"}
    assert "llama" in families.known()


def test_an_uninstalled_engine_names_the_package_to_install(declared):
    declared()
    with pytest.raises(ValueError, match=r"the vllm engine is not installed: pip install nnterp-vllm"):
        families.known("vllm")
    with pytest.raises(ValueError, match=r"pip install nnterp-vllm"):
        families.lookup("llama", engine="vllm")


def test_an_unknown_engine_says_how_an_engine_is_added(declared):
    declared()
    with pytest.raises(ValueError) as error:
        families.known("sglang")
    message = str(error.value)
    assert "unknown engine 'sglang'; the installed engines are transformers." in message
    assert "'nnterp.engines' entry points" in message
