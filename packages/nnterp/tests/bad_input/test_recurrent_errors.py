"""A recurrent mixer's state refuses a write of the wrong type or shape at the write, naming the shape expected."""

import pytest
import torch
from bad_input_support import PROMPT, still_runs

from nnterp import StandardizedTransformer


@pytest.fixture(scope="module")
def mamba2(path):
    return StandardizedTransformer(path("mamba2"), dispatch=True)


@pytest.fixture(scope="module")
def mamba(path):
    return StandardizedTransformer(path("mamba"), dispatch=True)


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        (torch.zeros(1, 3), ValueError, r"got shape \(1, 3\)"),
        ([0.0], TypeError, "got list"),
    ],
)
def test_a_prompt_state_of_the_wrong_shape_names_the_shape(mamba2, value, error, match):
    with pytest.raises(error, match=rf"state_input takes a tensor of shape \(1, 4, 32, 16\), .*{match}"):
        with mamba2.trace(PROMPT):
            mamba2.layers[0].linear_attn.state_input = value
    still_runs(mamba2)


def test_a_prompt_state_of_the_right_shape_lands(mamba2):
    with mamba2.trace(PROMPT):
        mamba2.layers[0].linear_attn.state_input = torch.zeros(1, 4, 32, 16)
        logits = mamba2.logits.save()
    assert torch.isfinite(logits).all()


@pytest.mark.parametrize("name", ["mamba", "mamba2"])
def test_a_decode_state_that_is_not_a_tensor_is_refused(request, name):
    model = request.getfixturevalue(name)
    with pytest.raises(TypeError, match=r"state_input takes a torch\.Tensor, .*cannot be assigned a builtins\.list"):
        with model.generate(PROMPT, max_new_tokens=2) as tracer:
            for _ in tracer.iter[1]:
                model.layers[0].linear_attn.state_input = [0.0]
    still_runs(model)
