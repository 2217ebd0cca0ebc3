"""A recurrent mixer's state refuses a write of the wrong type or shape at the write, naming the shape expected.

Each message leads with the value's standard name, its native module after it.
"""

import pytest
import torch
from bad_input_support import PROMPT, still_runs

from nnterp import StandardizedTransformer, route_kernels


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
    named = r"^layers\[0\]\.linear_attn\.state_input \(on model\.backbone\.layers\.0\.mixer\)"
    with pytest.raises(error, match=rf"{named} takes a tensor of shape \(1, 4, 32, 16\), .*{match}"):
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
    named = r"^layers\[0\]\.linear_attn\.state_input \(on model\.backbone\.layers\.0\.mixer\)"
    with pytest.raises(TypeError, match=rf"{named} takes a torch\.Tensor, .*cannot be assigned a builtins\.list"):
        with model.generate(PROMPT, max_new_tokens=2) as tracer:
            for _ in tracer.iter[1]:
                model.layers[0].linear_attn.state_input = [0.0]
    still_runs(model)


@pytest.fixture(scope="module")
def deltanet(path):
    return StandardizedTransformer(path("qwen3_next"), dispatch=True)


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        (torch.zeros(1, 3), ValueError, r"got shape \(1, 3\)"),
        (torch.zeros(1, 4, 16, 8), ValueError, r"got shape \(1, 4, 16, 8\)"),
        ([0.0], TypeError, "got list"),
    ],
)
def test_a_deltanet_prompt_state_of_the_wrong_shape_names_the_shape(deltanet, value, error, match):
    """A fresh prompt's gated DeltaNet kernel starts from no state, so the shape comes off its queries and values."""
    named = r"^layers\[0\]\.linear_attn\.state_input \(on model\.model\.layers\.0\.linear_attn\)"
    expected = r"takes a tensor of shape \(1, 4, 16, 16\), \[batch, heads, key_dim, value_dim\]"
    with pytest.raises(error, match=rf"{named} {expected}, {match}"):
        with deltanet.trace(PROMPT):
            deltanet.layers[0].linear_attn.state_input = value
    still_runs(deltanet)


def test_a_deltanet_prompt_state_of_the_right_shape_lands(deltanet):
    with deltanet.trace(PROMPT):
        clean = deltanet.logits.save()
    with deltanet.trace(PROMPT):
        deltanet.layers[0].linear_attn.state_input = torch.ones(1, 4, 16, 16)
        edited = deltanet.logits.save()
    assert torch.isfinite(edited).all() and not torch.equal(clean, edited)


def test_a_per_token_state_of_the_wrong_shape_names_the_value(path):
    model = StandardizedTransformer(path("qwen3_5_text"), dispatch=True, dtype=torch.float32)
    route_kernels(model.family, "torch")
    try:
        with pytest.raises(
            ValueError,
            match=r"^layers\[0\]\.linear_attn\.set_state_after\(2\) \(on model\.model\.layers\.0\.linear_attn\) "
            r"takes a torch\.float32 tensor of shape \(1, 4, 16, 16\), got torch\.float32 \(1, 3\)",
        ):
            with torch.no_grad(), model.trace(PROMPT):
                model.layers[0].linear_attn.set_state_after(2, torch.zeros(1, 3))
        still_runs(model)
    finally:
        route_kernels(model.family, "default")
