"""The default family tells the truth before the trace: name collisions, own-arithmetic attentions, heads per block.

Each checkpoint is built here from a tiny config (the harness builder, no Hub) and
loaded with `family=default`, as a type without a family module is.
"""

import warnings

import pytest
import torch

from nnterp import StandardizedTransformer, Unavailable
from nnterp.components import NOT_ON_INTERFACE
from nnterp.families import default
from nnterp_harness.checkpoints import build_entry
from nnterp_harness.entry import Entry
from nnterp_harness.release import skip_unless_known

PROMPT = "The Eiffel Tower is in"
SMALL = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "initializer_range": 0.15}


def tiny(tmp_path_factory, name, model_type, overrides):
    """Build checkpoint `name` of `model_type` into a temporary root and return its path."""
    skip_unless_known(model_type)
    return build_entry(Entry(name, model_type, overrides), tmp_path_factory.mktemp(name))


def load(path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return StandardizedTransformer(str(path), family=default, dispatch=True, attn_implementation="eager", **kwargs)


def test_a_native_child_named_like_a_standard_value_does_not_break_the_load(path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    raw = AutoModelForCausalLM.from_pretrained(path("llama"), attn_implementation="eager")
    for block in raw.model.layers:
        block.mlp_input = torch.nn.Identity()  # a module whose name is a standard value's
    with pytest.warns(UserWarning, match="submodule named 'mlp_input'.*E_mlp_input"):
        model = StandardizedTransformer(raw, tokenizer=AutoTokenizer.from_pretrained(path("llama")))
    block = model.layers[0]
    assert block.E_mlp_input._module is raw.model.layers[0].mlp_input
    assert model.support()["mlp_input"] is None
    with model.trace(PROMPT):
        served = block.mlp_input.save()
        called = block.mlp.input.save()
    assert torch.equal(served, called)


@pytest.mark.parametrize(
    ("model_type", "overrides"),
    [
        ("mpt", {"d_model": 64, "n_layers": 2, "n_heads": 4, "expansion_ratio": 2, "max_seq_len": 128}),
        ("falcon", {**SMALL, "new_decoder_architecture": False, "multi_query": False, "alibi": False}),
    ],
)
def test_an_attention_with_its_own_arithmetic_reports_its_interior_unavailable(tmp_path_factory, model_type, overrides):
    model = load(tiny(tmp_path_factory, f"default_{model_type}", model_type, overrides))
    reasons = model.support()["self_attn.attention_probabilities"]
    assert set(reasons) == set(range(len(model.layers))), reasons
    assert all(NOT_ON_INTERFACE in reason for reason in reasons.values()), reasons
    with pytest.raises(Unavailable, match="own arithmetic"):
        with model.trace(PROMPT):
            model.layers[0].self_attn.attention_probabilities.save()


def test_an_attention_on_the_interface_keeps_its_interior(path):
    model = load(path("llama"))
    assert model.support()["self_attn.attention_probabilities"] is None


def test_heads_are_counted_where_the_heads_merge_on_a_gated_query(tmp_path_factory):
    overrides = {
        **SMALL,
        "num_hidden_layers": 2,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "intermediate_size": 96,
        "layer_types": ["linear_attention", "full_attention"],
        "linear_num_key_heads": 2,
        "linear_num_value_heads": 4,
        "linear_key_head_dim": 16,
        "linear_value_head_dim": 16,
    }
    model = load(tiny(tmp_path_factory, "default_qwen3_5_text", "qwen3_5_text", overrides))
    attention = model.layers[1].self_attn
    assert attention.num_heads == model.config.num_attention_heads == 4
    with model.trace(PROMPT):
        pattern = model.layers[1].self_attn.attention_probabilities.save()
    assert pattern.shape[1] == attention.num_heads


def test_a_head_width_that_differs_per_block_is_read_per_block(path):
    skip_unless_known("gemma4_text")
    model = load(path("gemma4_text"))
    widths = {index: model.layers[index].self_attn.head_dim for index in range(len(model.layers))}
    assert len(set(widths.values())) > 1, widths
    with pytest.raises(ValueError, match=r"head_dim differs per block on this model .*self_attn.head_dim"):
        model.head_dim  # noqa: B018 - the read is the test
    for index in range(len(model.layers)):
        with model.trace(PROMPT):
            pattern = model.layers[index].self_attn.attention_queries.save()
        assert pattern.shape[-1] == widths[index]
