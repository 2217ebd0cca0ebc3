"""A load refuses a bad path, file, config, keyword, family or rename map with what was wrong and the fix."""

import json

import pytest

import nnterp
from nnterp import StandardizedTransformer
from nnterp.standardized import LEGACY_KEYWORDS


def test_a_missing_local_path_names_the_path():
    with pytest.raises(FileNotFoundError, match=r"'/nonexistent/dir' reads as a local path.*check the path"):
        StandardizedTransformer("/nonexistent/dir")


def test_a_relative_missing_path_is_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="nothing exists there"):
        StandardizedTransformer("./checkpoints/gpt2")


def test_a_file_is_not_a_checkpoint(copy):
    with pytest.raises(NotADirectoryError, match="config.json"):
        StandardizedTransformer(str(copy("gpt2") / "config.json"))


def test_a_directory_without_config(tmp_path):
    with pytest.raises(FileNotFoundError, match="holds no config.json"):
        StandardizedTransformer(str(tmp_path))


def test_a_corrupt_config(copy):
    target = copy("gpt2")
    (target / "config.json").write_text('{"model_type": "gpt2", ')
    with pytest.raises(ValueError, match=r"config.json is not valid JSON.*download or save it again"):
        StandardizedTransformer(str(target))


def test_a_truncated_safetensors(copy):
    target = copy("gpt2")
    weights = target / "model.safetensors"
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=rf"holds {len(data) // 2} bytes and its header describes {len(data)}"):
        StandardizedTransformer(str(target))


def test_an_overwritten_safetensors_header(copy):
    target = copy("gpt2")
    weights = target / "model.safetensors"
    weights.write_bytes(b"\xff" * 64)
    with pytest.raises(ValueError, match="not a readable safetensors file"):
        StandardizedTransformer(str(target))


def test_a_config_without_model_type(copy):
    target = copy("gpt2")
    config = json.loads((target / "config.json").read_text())
    del config["model_type"]
    (target / "config.json").write_text(json.dumps(config))
    with pytest.raises(ValueError, match=r"model_type.*pass family="):
        StandardizedTransformer(str(target))


def test_a_config_without_model_type_loads_with_family(copy):
    target = copy("gpt2")
    config = json.loads((target / "config.json").read_text())
    del config["model_type"]
    (target / "config.json").write_text(json.dumps(config))
    with pytest.raises(Exception) as caught:  # noqa: PT011 - transformers' own error, whatever it is
        StandardizedTransformer(str(target), family=nnterp.families.lookup("gpt2"))
    # with family= nnterp reads no config; whatever fails next is transformers' refusal, not nnterp's
    assert "pass family=" not in str(caught.value)


@pytest.mark.parametrize("keyword", sorted(LEGACY_KEYWORDS))
def test_a_1x_keyword_raises_at_construction_with_its_2x_spelling(path, keyword):
    with pytest.raises(TypeError, match=rf"1\.x keyword.*{keyword}= is now"):
        StandardizedTransformer(path("gpt2"), **{keyword: True})


def test_enable_attention_probs_points_at_eager(path):
    with pytest.raises(TypeError, match="attn_implementation='eager'"):
        StandardizedTransformer(path("gpt2"), enable_attention_probs=True)


@pytest.mark.parametrize("family", ["gpt2", object(), 3])
def test_family_that_is_not_a_family(path, family):
    with pytest.raises(TypeError, match=r"family= takes a family.*RENAME and ENVOYS"):
        StandardizedTransformer(path("gpt2"), family=family)


def test_family_given_as_a_string_points_at_lookup(path):
    with pytest.raises(TypeError, match=r"nnterp\.families\.lookup\('gpt2'\)"):
        StandardizedTransformer(path("gpt2"), family="gpt2")


@pytest.mark.parametrize("key", ["transformer.nope", "nothing_named_so"])
def test_rename_key_that_matches_nothing(path, key):
    with pytest.raises(ValueError, match=rf"rename= key '{key}' matches no module.*print\(model\)"):
        StandardizedTransformer(path("gpt2"), rename={key: "x"})


def test_rename_keys_that_match_load(path):
    model = StandardizedTransformer(path("gpt2"), rename={"transformer.wpe": "embed_positions", "mlp": "ffn"})
    assert model.embed_positions is model.transformer.wpe
    assert model.layers[0].ffn is model.layers[0].mlp


@pytest.mark.parametrize("family", [None, "llava"])
def test_the_lazy_and_the_dispatched_default_task_loads_of_a_wrapper_agree(path, monkeypatch, family):
    """A wrapper with no causal-LM class (Llava) builds under the default task lazily as dispatched: both fall back to it.

    A Hub id's config.json is not read before the load; `_check_source` answering `None`
    makes the local copy stand in for one, the case where `family=` spares the config read.
    """
    import torch

    monkeypatch.setattr(nnterp.standardized, "_check_source", lambda repo_id, needs_type=True: None)
    chosen = nnterp.families.lookup(family) if family else None
    lazy = StandardizedTransformer(path("llava"), family=chosen)
    dispatched = StandardizedTransformer(path("llava"), family=chosen, dispatch=True)
    assert type(lazy._module) is type(dispatched._module)
    assert type(lazy._module).__name__ == "LlavaForConditionalGeneration"
    outputs = []
    for model in (lazy, dispatched):
        with torch.no_grad(), model.trace("The Eiffel Tower is in"):
            outputs.append(model.logits.save())
    assert torch.equal(outputs[0], outputs[1])
