"""A block index out of range or of the wrong type is refused by every method that takes one, naming the range."""

import pytest
import torch
from bad_input_support import PROMPT, still_runs

from nnterp import StandardizedTransformer


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
