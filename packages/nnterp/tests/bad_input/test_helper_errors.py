"""The activation helpers check layers, positions, padding side and batch size before the trace."""

import pytest
from bad_input_support import still_runs

from nnterp import StandardizedTransformer
from nnterp.nnsight_utils import collect_token_activations_batched, get_token_activations


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
