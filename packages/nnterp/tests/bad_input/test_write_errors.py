"""A write of the wrong shape, heads or dtype is refused at the write, before the model runs."""

import numpy as np
import pytest
import torch
from bad_input_support import PROMPT, still_runs


@pytest.mark.parametrize(
    ("target", "value", "named"),
    [
        (lambda m: m.layers[0], "layer_output", r"layers\[0\]\.layer_output \(on model\.transformer\.h\.0\)"),
        (
            lambda m: m.layers[1].self_attn,
            "attention_output",
            r"layers\[1\]\.self_attn\.attention_output \(on model\.transformer\.h\.1\.attn\)",
        ),
        (lambda m: m.layers[1].mlp, "mlp_output", r"layers\[1\]\.mlp\.mlp_output \(on model\.transformer\.h\.1\.mlp\)"),
        (lambda m: m, "logits", "logits"),
    ],
    ids=["block", "attention", "mlp", "root"],
)
def test_a_write_of_the_wrong_shape_is_refused_at_the_write(gpt2, target, value, named):
    """The message leads with the value's standard name, the native module after it (none for the root's)."""
    with pytest.raises(ValueError, match=rf"^{named} is \(1, \d+, \d+\) in this run.*shape \(1, 3, 5\)"):
        with gpt2.trace(PROMPT):
            setattr(target(gpt2), value, torch.zeros(1, 3, 5))
    still_runs(gpt2)


def test_a_write_of_an_interior_value_checks_the_heads(gpt2):
    attn = gpt2.layers[0].self_attn
    with pytest.raises(
        ValueError,
        match=r"^layers\[0\]\.self_attn\.attention_probabilities \(on model\.transformer\.h\.0\.attn\) is \(1, 4, \d+, \d+\).*shape \(1, 4, 2, 2\)",
    ):
        with gpt2.trace(PROMPT):
            attn.attention_probabilities = torch.zeros(1, 4, 2, 2)
    still_runs(gpt2)


def test_a_write_of_the_wrong_dtype_is_refused(gpt2):
    with gpt2.trace(PROMPT):
        ids = gpt2.input_ids.save()
    full = (1, ids.shape[1], gpt2.hidden_size)
    with pytest.raises(
        ValueError,
        match=r"^layers\[0\]\.layer_output \(on model\.transformer\.h\.0\) is torch\.float32 in this run.*"
        r"torch\.float64.*\.to\(torch\.float32\)",
    ):
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


@pytest.mark.parametrize(
    ("value", "convert"), [(np.zeros((1, 5, 64), dtype=np.float32), "torch.from_numpy"), ([0.0], "torch.tensor")]
)
def test_a_write_of_something_not_a_tensor_names_the_conversion(gpt2, value, convert):
    with pytest.raises(
        TypeError,
        match=rf"^layers\[0\]\.layer_output \(on model\.transformer\.h\.0\) takes a torch\.Tensor, .*cannot be assigned a .*{convert}\(value\)",
    ):
        with gpt2.trace(PROMPT):
            gpt2.layers[0].layer_output = value
    still_runs(gpt2)
