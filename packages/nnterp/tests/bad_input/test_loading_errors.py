"""A load refuses a bad path, file, config, keyword, family or rename map with what was wrong and the fix."""

import json

import pytest

import nnterp
from nnterp import StandardizedTransformer
from nnterp.standardized import LEGACY_KEYWORDS


def test_a_missing_local_path_names_the_path():
    with pytest.raises(FileNotFoundError, match=r"no checkpoint at '/nonexistent/dir': .*'/' holds no 'nonexistent'"):
        StandardizedTransformer("/nonexistent/dir")


def test_a_relative_missing_path_is_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"no checkpoint at './checkpoints/gpt2'.*check the path"):
        StandardizedTransformer("./checkpoints/gpt2")


def test_a_typo_in_a_relative_path_names_the_close_names(tmp_path, monkeypatch):
    # `checkpoints/dmeo` reads like a Hub id; its first part existing here makes it a path.
    (tmp_path / "checkpoints" / "demo").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(
        FileNotFoundError,
        match=r"no checkpoint at 'checkpoints/dmeo': .*'checkpoints' holds no 'dmeo' \(close: 'demo'\)",
    ):
        StandardizedTransformer("checkpoints/dmeo")


def test_a_namespaced_id_the_offline_hub_cannot_answer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(FileNotFoundError, match=r"no checkpoint at 'nobody-here/no-such-model'.*Hub cache holds no"):
        StandardizedTransformer("nobody-here/no-such-model")


def test_a_mistyped_load_keyword_names_the_close_match(path):
    with pytest.raises(
        TypeError, match=r"unknown keyword attn_impl=.*GPT2Config has no such.*did you mean attn_implementation="
    ):
        StandardizedTransformer(path("gpt2"), attn_impl="eager")


@pytest.mark.parametrize("family", [None, "gpt2"])
def test_config_and_from_pretrained_keywords_still_load(path, family):
    family = family and nnterp.families.lookup(family)
    model = StandardizedTransformer(path("gpt2"), family=family, n_layer=2, device_map="cpu", output_attentions=False)
    assert len(model.layers) == 2
    assert len(StandardizedTransformer(path("gpt2"), num_hidden_layers=1).layers) == 1


def test_a_wrapper_loaded_for_text_names_the_task_in_one_warning(path, capfd):
    with pytest.warns(UserWarning, match=r'LlavaForConditionalGeneration .*task="image-text-to-text"'):
        StandardizedTransformer(path("llava"), dispatch=True)
    # transformers' log of every class it supports for text generation is not printed
    assert "Supported models are" not in capfd.readouterr().err


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


@pytest.fixture
def untyped(copy):
    """A copy of the gpt2 checkpoint whose config.json has no `model_type`."""
    target = copy("gpt2")
    config = json.loads((target / "config.json").read_text())
    del config["model_type"]
    (target / "config.json").write_text(json.dumps(config))
    return target


def test_a_config_without_model_type(untyped):
    with pytest.raises(ValueError, match=r"model_type.*pass family="):
        StandardizedTransformer(str(untyped))


def test_a_config_without_model_type_loads_with_family(untyped):
    target = untyped
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


@pytest.mark.parametrize("task", ["text-classification", "token-classification", None])
def test_a_task_without_a_language_model_head_is_refused(path, task):
    with pytest.raises(ValueError, match=rf"task={task!r} is not a task.*task='text-generation'.*'image-text-to-text'"):
        StandardizedTransformer(path("gpt2"), task=task)


@pytest.mark.parametrize("task", ["fill-mask", "feature-extraction"])
def test_an_encoder_task_on_a_decoder_is_refused(path, task):
    with pytest.raises(ValueError, match=rf"task={task!r} is an encoder's task.*gpt2 family is not an encoder"):
        StandardizedTransformer(path("gpt2"), task=task)


@pytest.mark.parametrize("task", ["text-generation", "image-text-to-text"])
def test_a_decoder_task_on_an_encoder_is_refused(path, task):
    with pytest.raises(ValueError, match=rf"task={task!r}: the bert family is a bidirectional encoder.*'fill-mask'"):
        StandardizedTransformer(path("bert"), task=task)


def test_a_tokenizer_kwargs_key_the_tokenizer_lacks_is_refused(path):
    with pytest.raises(ValueError, match=r"\['padding_sid'\].*did you mean 'padding_side'"):
        StandardizedTransformer(path("gpt2"), tokenizer_kwargs={"padding_sid": "right"})
    model = StandardizedTransformer(
        path("gpt2"), tokenizer_kwargs={"padding_side": "right", "pad_token": "<|endoftext|>", "model_max_length": 64}
    )
    assert (model.tokenizer.padding_side, model.tokenizer.pad_token) == ("right", "<|endoftext|>")
    assert model.tokenizer.model_max_length == 64


@pytest.mark.parametrize("family", [None, "llava"])
def test_the_lazy_and_the_dispatched_default_task_loads_of_a_wrapper_agree(path, monkeypatch, family):
    """A wrapper with no causal-LM class (Llava) builds under the default task lazily as dispatched: both fall back to it.

    A Hub id's config.json is not read before the load; `_check_source` answering `None`
    makes the local copy stand in for one, the case where `family=` spares the config read.
    """
    import torch

    monkeypatch.setattr(nnterp.standardized, "_check_source", lambda repo_id, needs_type=True, revision=None: None)
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
