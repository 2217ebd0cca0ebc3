"""Bad input raises early, with what was wrong, the value, what was expected and the fix.

Each test names one mistake a user can make through the public API. Where the
mistake is visible before the model runs, the error comes before it runs; the
model stays usable after every one of them.
"""

import json
import re
import shutil

import pytest
import torch
from nnsight.intervention.interleaver import OutOfOrderError

import nnterp
from nnterp import StandardizedTransformer, Unavailable
from nnterp.nnsight_utils import collect_token_activations_batched, get_token_activations
from nnterp.standardized import LEGACY_KEYWORDS

PROMPT = "The Eiffel Tower is in"


@pytest.fixture(scope="module")
def lazy(path):
    """gpt2 without dispatch: every check that needs no weights runs on it."""
    return StandardizedTransformer(path("gpt2"))


@pytest.fixture
def copy(path, tmp_path):
    """`copy(name)`: a writable copy of a pinned checkpoint."""

    def make(name: str):
        target = tmp_path / name
        shutil.copytree(path(name), target)
        return target

    return make


def still_runs(model) -> None:
    with model.trace(PROMPT):
        logits = model.logits.save()
    assert torch.isfinite(logits).all()


# -- loading ------------------------------------------------------------------------


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


# -- block indices -------------------------------------------------------------------


def test_layer_index_out_of_range(lazy):
    with pytest.raises(IndexError, match=r"layers\[99\] is out of range: .* holds 3 blocks.*0 to 2"):
        lazy.layers[99]
    with pytest.raises(IndexError, match=r"layers\[-4\] is out of range"):
        lazy.layers[-4]
    assert lazy.layers[-3] is lazy.layers[0]


def test_layer_index_out_of_range_inside_a_trace(path):
    model = StandardizedTransformer(path("gpt2"), dispatch=True)
    with pytest.raises(IndexError, match=r"layers\[99\]"):
        with model.trace(PROMPT):
            model.layers[99].layer_output.save()
    still_runs(model)


@pytest.mark.parametrize("key", [1.0, torch.tensor(1), True, None])
def test_layer_index_of_the_wrong_type(lazy, key):
    with pytest.raises(TypeError, match="a block index is an int"):
        lazy.layers[key]


def test_layer_slices_still_work(lazy):
    assert len(lazy.layers[1:]) == 2


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.support(layer=99),
        lambda m: m.support(layer="0"),
        lambda m: m.order(3),
        lambda m: m.order(1.5),
        lambda m: m.rank("layer_output", -4),
    ],
)
def test_every_method_checks_its_layer(lazy, call):
    with pytest.raises((IndexError, TypeError), match=r"(out of range|not a block index).*0 to 2|from -3 to 2"):
        call(lazy)


def test_rank_of_a_value_the_block_lacks_says_why(path):
    model = StandardizedTransformer(path("gpt2"), dispatch=True)  # sdpa: no pattern
    with pytest.raises(KeyError, match="eager attention"):
        model.rank("self_attn.attention_probabilities", 0)
    with pytest.raises(KeyError, match="no value of that name"):
        model.rank("no_such_value", 0)


# -- writes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        lambda m: m.layers[0],
        lambda m: m.layers[1].self_attn,
        lambda m: m.layers[1].mlp,
        lambda m: m,
    ],
    ids=["block", "attention", "mlp", "root"],
)
def test_a_write_of_the_wrong_shape_is_refused_at_the_write(gpt2, target):
    name = {"block": "layer_output", "attention": "attention_output", "mlp": "mlp_output", "root": "logits"}
    host = target(gpt2)
    value = next(key for key in name.values() if key in type(host).__dict__ or hasattr(type(host), key))
    with pytest.raises(ValueError, match=rf"{host.path}\.{value} is \(1, \d+, \d+\) in this run.*shape \(1, 3, 5\)"):
        with gpt2.trace(PROMPT):
            setattr(host, value, torch.zeros(1, 3, 5))
    still_runs(gpt2)


def test_a_write_of_an_interior_value_checks_the_heads(gpt2):
    attn = gpt2.layers[0].self_attn
    with pytest.raises(ValueError, match=r"attention_probabilities is \(1, 4, \d+, \d+\).*shape \(1, 4, 2, 2\)"):
        with gpt2.trace(PROMPT):
            attn.attention_probabilities = torch.zeros(1, 4, 2, 2)
    still_runs(gpt2)


def test_a_write_of_the_wrong_dtype_is_refused(gpt2):
    with gpt2.trace(PROMPT):
        ids = gpt2.input_ids.save()
    full = (1, ids.shape[1], gpt2.hidden_size)
    with pytest.raises(ValueError, match=r"torch\.float32 in this run.*torch\.float64.*\.to\(torch\.float32\)"):
        with gpt2.trace(PROMPT):
            gpt2.layers[0].layer_output = torch.zeros(full, dtype=torch.float64)
    still_runs(gpt2)


def test_input_ids_may_change_length_but_not_rank(gpt2):
    with pytest.raises(ValueError, match=r"input_ids is 2-D.*1-D tensor of shape \(3,\).*\[batch, seq\]"):
        with gpt2.trace(PROMPT):
            gpt2.input_ids = torch.tensor([1, 2, 3])
    with gpt2.trace(PROMPT):
        gpt2.input_ids = torch.tensor([[1, 2, 3]])
        gpt2.attention_mask = torch.ones(1, 3, dtype=torch.long)
        logits = gpt2.logits.save()
    assert logits.shape[1] == 3


def test_a_write_of_the_right_shape_lands(gpt2):
    with gpt2.trace(PROMPT):
        out = gpt2.layers[0].layer_output
        gpt2.layers[0].layer_output = torch.zeros_like(out)
        seen = gpt2.layers[1].layer_input.save()
    assert torch.equal(seen, torch.zeros_like(seen))


# -- methods -----------------------------------------------------------------------------


def test_steer_with_a_vector_of_the_wrong_width(gpt2):
    with pytest.raises(ValueError, match=r"steer\(vector=\.\.\.\) has shape \(7,\).*hidden_size=64"):
        with gpt2.trace(PROMPT):
            gpt2.steer(layers=[0], vector=torch.zeros(7))
    still_runs(gpt2)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"layers": [5]}, IndexError, r"steer\(layers=\.\.\.\)=5 is out of range.*0 to 2"),
        ({"layers": [2, 1]}, ValueError, r"ascending order.*\[2, 1\]"),
        ({"layers": ["0"]}, TypeError, "not a block index"),
        ({"layers": 0, "vector": [0.0] * 64}, TypeError, "takes a tensor"),
        ({"layers": 0, "token_positions": 50}, IndexError, r"token_positions=\.\.\.\)=50 is out of range"),
        ({"layers": 0, "batch_index": [0, 3]}, IndexError, r"batch_index=\.\.\.\)=\[0, 3\] is out of range"),
    ],
)
def test_steer_arguments(gpt2, kwargs, error, match):
    kwargs = {"vector": torch.zeros(gpt2.hidden_size), **kwargs}
    with pytest.raises(error, match=match):
        with gpt2.trace(PROMPT):
            gpt2.steer(**kwargs)
    still_runs(gpt2)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((0, 3), IndexError, r"skip_layers end=3 is out of range.*0 to 2"),
        ((-4, 0), IndexError, r"skip_layers start=-4 is out of range"),
        ((2, 1), ValueError, r"start comes after end"),
        ((0.0, 1), TypeError, "not a block index"),
    ],
)
def test_skip_layers_bounds(gpt2, args, error, match):
    with pytest.raises(error, match=match):
        with gpt2.trace(PROMPT):
            gpt2.skip_layers(*args)
    still_runs(gpt2)


def test_skip_with_of_the_wrong_width(gpt2):
    with pytest.raises(ValueError, match=r"skip_with=\.\.\.\) has shape \(1, 2, 5\).*hidden_size=64"):
        with gpt2.trace(PROMPT):
            gpt2.skip_layers(0, 1, skip_with=torch.zeros(1, 2, 5))


def test_project_on_vocab_of_the_wrong_width(lazy):
    with pytest.raises(ValueError, match=r"project_on_vocab\(hidden\) has shape \(3,\).*hidden_size=64"):
        lazy.project_on_vocab(torch.zeros(3))
    with pytest.raises(ValueError, match=r"get_topk_closest_tokens\(hidden\) has shape \(2, 3\)"):
        lazy.get_topk_closest_tokens(torch.zeros(2, 3))


def test_probs_to_dict_k(lazy):
    probs = torch.full((lazy.vocab_size,), 1 / lazy.vocab_size)
    for k in (0, lazy.vocab_size + 1, 2.5):
        with pytest.raises(ValueError, match=rf"k={k!r}.*from 1 to the distribution's size, {lazy.vocab_size}"):
            lazy.probs_to_dict(probs, k=k)
    with pytest.raises(ValueError, match=r"index a row first"):
        lazy.probs_to_dict(probs[None])


@pytest.mark.parametrize("prompt", ["", [""], []])
def test_an_empty_prompt_is_refused_before_the_run(gpt2, prompt):
    with pytest.raises(ValueError, match=r"no tokens|empty list of prompts"):
        with gpt2.trace(prompt):
            gpt2.logits.save()
    still_runs(gpt2)


# -- helpers -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def left(path):
    return StandardizedTransformer(path("gpt2"), dispatch=True, tokenizer_kwargs={"padding_side": "left"})


def test_helper_layers_are_checked_before_the_trace(left):
    with pytest.raises(IndexError, match=r"layers=\[0, 7\] holds 7, out of range.*3 blocks"):
        get_token_activations(left, ["a b", "c"], layers=[0, 7])
    with pytest.raises(TypeError, match=r"holds '1', which is not a block index"):
        get_token_activations(left, ["a b", "c"], layers=["1"])


def test_helper_token_position_out_of_range(left):
    with pytest.raises(IndexError, match=r"idx=-40 is out of range.*positions on axis 1"):
        get_token_activations(left, ["a b", "c"], layers=[0], idx=-40)
    still_runs(left)


def test_helper_padding_side_contradicts_a_positive_index(left):
    with pytest.raises(
        ValueError, match="a positive token index needs right padding, and the tokenizer pads 'left'"
    ) as caught:
        get_token_activations(left, ["a b", "c"], idx=2)
    assert any("padding_side': 'right'" in note for note in getattr(caught.value, "__notes__", []))


def test_helper_batch_size(left):
    with pytest.raises(ValueError, match=r"batch_size=0: pass an int of at least 1"):
        collect_token_activations_batched(left, ["a", "b"], batch_size=0)


# -- failing traces leave the model usable --------------------------------------------------


def test_a_failing_trace_leaves_the_model_usable(gpt2, path):
    sdpa = StandardizedTransformer(path("gpt2"), dispatch=True)
    with pytest.raises(Unavailable):
        with sdpa.trace(PROMPT):
            sdpa.layers[0].self_attn.attention_probabilities.save()
    still_runs(sdpa)
    with pytest.raises(OutOfOrderError):
        with gpt2.trace(PROMPT):
            gpt2.layers[2].layer_output.save()
            gpt2.layers[0].layer_output.save()
    still_runs(gpt2)


# -- remote code and the remote key ---------------------------------------------------------


def test_custom_code_runs_only_with_trust_remote_code(tmp_path):
    marker = tmp_path / "executed"
    checkpoint = tmp_path / "custom"
    checkpoint.mkdir()
    (checkpoint / "config.json").write_text(
        json.dumps(
            {
                "model_type": "nnterp_custom",
                "architectures": ["CustomModel"],
                "auto_map": {
                    "AutoConfig": "configuration_custom.CustomConfig",
                    "AutoModelForCausalLM": "modeling_custom.CustomModel",
                },
            }
        )
    )
    (checkpoint / "configuration_custom.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n"
        "from transformers import PretrainedConfig\n\n\n"
        "class CustomConfig(PretrainedConfig):\n    model_type = 'nnterp_custom'\n"
    )
    with pytest.raises(ValueError, match="trust_remote_code=True") as caught:
        StandardizedTransformer(str(checkpoint))
    assert "nnterp" not in str(caught.value).replace("nnterp_custom", "")  # transformers' own message
    assert not marker.exists(), "the checkpoint's code ran without trust_remote_code=True"


def test_the_remote_key_follows_nnsights_id_cache(gpt2, monkeypatch):
    import nnsight
    from nnsight.modeling.huggingface import _ID_CACHE

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(gpt2, "repo_id", "gpt2")
    monkeypatch.delitem(_ID_CACHE, "gpt2", raising=False)
    # nnsight would ask the Hub here; nnterp keeps the id as given
    assert json.loads(gpt2.to_model_key().split(":", 1)[1])["repo_id"] == "gpt2"
    monkeypatch.setitem(_ID_CACHE, "gpt2", "openai-community/gpt2")
    key = gpt2.to_model_key()
    assert json.loads(key.split(":", 1)[1])["repo_id"] == "openai-community/gpt2"
    assert key.split(":", 1)[1] == nnsight.TransformersModel._remoteable_model_key(gpt2)


# -- the write check on every reference family ---------------------------------------------

FAMILIES = ["gpt2", "llama", "gpt_neox", "qwen2", "gemma2", "bloom", "opt"]


@pytest.mark.parametrize("name", FAMILIES)
def test_every_value_refuses_a_write_of_the_wrong_shape(path, name):
    from nnterp.components import DerivedEProperty, block_values
    from nnterp.standardized import _root_values

    model = StandardizedTransformer(path(name), dispatch=True, attn_implementation="eager")
    targets = [
        (host, key.rsplit(".", 1)[-1])
        for key, host, attr in block_values(model.layers[1])
        if attr.reason(host) is None and not isinstance(attr, DerivedEProperty)
    ]
    targets += [
        (model, key)
        for key, attr in _root_values(type(model)).items()
        if not isinstance(attr, DerivedEProperty) and key != "input_size"
    ]
    assert len(targets) > 8
    wrong = torch.zeros(1, 1, 1, 1, 1)
    for host, value in targets:
        with pytest.raises(ValueError, match=rf"{re.escape(host.path)}\.{value} is .*\(1, 1, 1, 1, 1\)"):
            with model.trace(PROMPT):
                setattr(host, value, wrong)
    still_runs(model)
