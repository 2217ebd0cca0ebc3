"""An expert index that no expert has is refused where it is written, before the experts run on it.

`expert_indices` holds integer ids from 0 to `num_experts - 1`. An assignment is
checked at the write; an in-place edit of the value read (`[:] = 99`) is checked
when the trace moves on from it, before the model consumes it. An in-place write of
a non-integer (`[:] = 1.5`), which torch would truncate, is refused at the write.
"""

import io

import pytest
import torch
from bad_input_support import PROMPT, still_runs

from nnterp import StandardizedTransformer


@pytest.fixture(scope="module")
def moe(path):
    return StandardizedTransformer(path("qwen3_moe"), dispatch=True)


@pytest.mark.parametrize("index", [99, 4, -1])
def test_an_in_place_index_out_of_range_is_refused(moe, index):
    with pytest.raises(
        IndexError,
        match=rf"^layers\[0\]\.mlp\.expert_indices \(on model\.model\.layers\.0\.mlp\) was edited in place to \[{index}\].*num_experts=4.*0 to",
    ):
        with moe.trace(PROMPT):
            moe.layers[0].mlp.expert_indices[:] = index
            moe.logits.save()
    still_runs(moe)


def test_an_assigned_index_out_of_range_is_refused(moe):
    with pytest.raises(
        IndexError,
        match=r"^layers\[1\]\.mlp\.expert_indices \(on model\.model\.layers\.1\.mlp\) was assigned \[7\].*num_experts=4",
    ):
        with moe.trace(PROMPT):
            indices = moe.layers[1].mlp.expert_indices
            moe.layers[1].mlp.expert_indices = torch.full_like(indices, 7)
    still_runs(moe)


def test_an_assigned_index_of_a_float_dtype_is_refused(moe):
    with pytest.raises(
        ValueError,
        match=r"^layers\[0\]\.mlp\.expert_indices \(on model\.model\.layers\.0\.mlp\) holds indices and was assigned a torch\.float32 tensor",
    ):
        with moe.trace(PROMPT):
            indices = moe.layers[0].mlp.expert_indices
            moe.layers[0].mlp.expert_indices = torch.full(indices.shape, 1.5)
    still_runs(moe)


@pytest.mark.parametrize(
    ("edit", "given"),
    [
        (lambda indices: indices.__setitem__(slice(None), 1.5), r"1\.5"),
        (
            lambda indices: indices.__setitem__((slice(None), slice(None), 0), torch.tensor(2.0)),
            "a torch.float32 tensor",
        ),
        (lambda indices: indices.fill_(True), "the bool True"),
        (lambda indices: indices.copy_(torch.ones(indices.shape)), "a torch.float32 tensor"),
        (lambda indices: indices.masked_fill_(indices == 0, 2.0), r"2\.0"),
        (lambda indices: indices[:, :, 0].__setitem__(slice(None), 2.5), r"2\.5"),
    ],
    ids=["float", "float-tensor", "bool", "copy", "masked-fill", "through-a-view"],
)
def test_an_in_place_write_of_a_non_integer_is_refused_at_the_write(moe, edit, given):
    """torch would truncate it to an integer, which no later check can tell from an integer write."""
    named = r"^layers\[0\]\.mlp\.expert_indices \(on model\.model\.layers\.0\.mlp\)"
    with pytest.raises(ValueError, match=rf"{named} holds integer ids and was edited in place with {given}, .*0 to"):
        with moe.trace(PROMPT):
            edit(moe.layers[0].mlp.expert_indices)
            moe.logits.save()
    still_runs(moe)


def test_a_saved_index_read_is_a_plain_tensor_after_the_trace(moe):
    with moe.trace(PROMPT):
        indices = moe.layers[0].mlp.expert_indices.save()
        first = moe.layers[0].mlp.expert_indices[:, :, 0].save()
        moe.logits.save()
    assert type(indices) is torch.Tensor and type(first) is torch.Tensor
    buffer = io.BytesIO()
    torch.save(indices, buffer)
    buffer.seek(0)
    assert torch.equal(torch.load(buffer), indices)
    assert repr(indices).startswith("tensor(")


def test_an_index_in_range_lands(moe):
    with moe.trace(PROMPT):
        clean = moe.logits.save()
    with moe.trace(PROMPT):
        moe.layers[0].mlp.expert_indices[:, :, 0] = 3
        seen = moe.layers[0].mlp.expert_indices.save()
        edited = moe.logits.save()
    assert (seen[:, :, 0] == 3).all()
    assert not torch.equal(clean, edited)


@pytest.mark.parametrize("name", ["llama4_text", "jetmoe", "doge"])
def test_every_kind_of_routing_refuses_an_index_out_of_range(path, name):
    """Indices served off the router's scores (Llama 4), off the router's own top-k (JetMoE), off product keys (Doge)."""
    model = StandardizedTransformer(path(name), dispatch=True)
    block = next(i for i in range(model.num_layers) if model.support(layer=i).get("mlp.expert_indices", 0) is None)
    count = model.layers[block].mlp.num_experts
    with pytest.raises(IndexError, match=rf"edited in place to \[{count}\].*num_experts={count}"):
        with model.trace(PROMPT):
            model.layers[block].mlp.expert_indices[:] = count
            model.logits.save()
    with pytest.raises(ValueError, match=r"holds integer ids and was edited in place with 1\.5, "):
        with model.trace(PROMPT):
            model.layers[block].mlp.expert_indices[:] = 1.5
            model.logits.save()
    still_runs(model)
