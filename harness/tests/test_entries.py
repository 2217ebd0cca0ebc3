"""The entry registry: data entries read from YAML, refused when malformed, and stating only what differs."""

import json
from pathlib import Path

import pytest

from nnterp_harness import entries
from nnterp_harness.entry import TEXT_DEFAULTS, Entry


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "entries.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_data_entry_takes_its_name_as_model_type_and_the_text_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path, "llama:\n  overrides: {num_hidden_layers: 3, hidden_size: 32}\nfalcon_40b:\n  model_type: falcon\n"
    )
    loaded = entries.load_data(path)
    assert loaded["llama"] == Entry("llama", "llama", {**TEXT_DEFAULTS, "num_hidden_layers": 3, "hidden_size": 32})
    assert loaded["falcon_40b"] == Entry("falcon_40b", "falcon", TEXT_DEFAULTS)


def test_without_leaves_a_text_default_out(tmp_path: Path) -> None:
    path = write(tmp_path, "gpt2:\n  without: [attention_dropout]\n  overrides: {n_layer: 3}\n")
    overrides = entries.load_data(path)["gpt2"].overrides
    assert "attention_dropout" not in overrides
    assert overrides == {**{k: v for k, v in TEXT_DEFAULTS.items() if k != "attention_dropout"}, "n_layer": 3}


def test_a_data_entry_with_an_unknown_key_is_refused_naming_the_valid_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "llama:\n  overides: {num_hidden_layers: 3}\n")
    with pytest.raises(ValueError, match="unknown keys \\['overides'\\]; valid keys: model_type, overrides, without"):
        entries.load_data(path)


def test_a_without_outside_the_text_defaults_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "gpt2:\n  without: [n_positions]\n")
    with pytest.raises(ValueError, match="without names \\['n_positions'\\], not keys of hidden_size"):
        entries.load_data(path)


def test_a_data_entry_declared_twice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "llama:\n  overrides: {}\nllama:\n  overrides: {num_hidden_layers: 3}\n")
    with pytest.raises(ValueError, match="line 3: 'llama' is declared twice"):
        entries.load_data(path)


def test_no_data_entry_restates_a_default() -> None:
    """A data entry states only what differs: a text default restated, or its own name as model type, is noise."""
    restated = [
        f"{name}.{key}"
        for name, data in entries.read_data().items()
        for key, value in data.get("overrides", {}).items()
        if key in TEXT_DEFAULTS and json.dumps(value) == json.dumps(TEXT_DEFAULTS[key])
    ]
    restated += [f"{name}.model_type" for name, data in entries.read_data().items() if data.get("model_type") == name]
    assert restated == []


def test_a_without_that_is_no_list_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "gpt2:\n  without: attention_dropout\n")
    with pytest.raises(ValueError, match="without is a list of keys"):
        entries.load_data(path)
