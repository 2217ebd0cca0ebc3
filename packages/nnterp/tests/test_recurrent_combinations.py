"""The per-token state reads and writes of a recurrent mixer combine in one trace, or refuse in one line.

`states`, `state_after(t)` and `set_state_after(t, value)` share one record per call: a token the
reads have passed is answered from it, a write must come before any read of a later token, and
every per-token value comes before what follows the kernel (`state_output`, `attention_head_outputs`).
"""

import pytest
import torch
from nnsight.intervention.interleaver import OutOfOrderError

from nnterp import StandardizedTransformer, route_kernels

PROMPT = "The Eiffel Tower is in the city of"


@pytest.fixture(scope="module", params=["qwen3_5_text", "mamba"])
def routed(request, path):
    model = StandardizedTransformer(path(request.param), dispatch=True, dtype=torch.float32)
    route_kernels(model.family, "torch")
    try:
        yield model
    finally:
        route_kernels(model.family, "default")


def mixer_index(model):
    return next(i for i, layer in enumerate(model.layers) if getattr(layer, "linear_attn", None) is not None)


def trace(model, body):
    box = []
    with torch.no_grad(), model.trace(PROMPT):
        box.append(body(model.layers[mixer_index(model)].linear_attn))
    return box[0]


def clean_states(model):
    return trace(model, lambda mix: mix.states.save())


def test_state_after_follows_states_in_one_trace(routed):
    states, third = trace(routed, lambda mix: (mix.states.save(), mix.state_after(3).save()))
    assert torch.equal(third, states[:, 3])


def test_state_after_reads_an_earlier_token_after_a_later_one(routed):
    states = clean_states(routed)
    late, early = trace(routed, lambda mix: (mix.state_after(5).save(), mix.state_after(2).save()))
    assert torch.equal(late, states[:, 5]) and torch.equal(early, states[:, 2])


def test_states_after_set_state_after_see_the_written_state(routed):
    def body(mix):
        zero = torch.zeros_like(mix.state_after(3))
        mix.set_state_after(3, zero)
        return mix.states.save()

    edited = trace(routed, body)
    clean = clean_states(routed)
    assert torch.equal(edited[:, :3], clean[:, :3])
    assert float(edited[:, 3].abs().max()) == 0.0
    assert not torch.equal(edited[:, 4], clean[:, 4])


def test_a_write_to_a_passed_token_names_the_order_that_works(routed):
    def body(mix):
        states = mix.states
        mix.set_state_after(2, torch.zeros_like(states[:, 2]))

    index = mixer_index(routed)
    with pytest.raises(
        OutOfOrderError,
        match=rf"^layers\[{index}\]\.linear_attn\.set_state_after\(2\) comes after a read .* write first, then read",
    ):
        trace(routed, body)


def test_a_state_read_after_the_kernel_returned_names_the_order_that_works(routed):
    def body(mix):
        mix.state_output.save()
        return mix.states.save()

    index = mixer_index(routed)
    with pytest.raises(
        OutOfOrderError, match=rf"^layers\[{index}\]\.linear_attn: .* read inside the kernel's loop, which this call"
    ):
        trace(routed, body)


def test_the_state_after_a_token_feeds_that_tokens_own_output(routed):
    clean = trace(routed, lambda mix: mix.attention_head_outputs.save())

    def body(mix):
        mix.set_state_after(3, torch.zeros_like(mix.state_after(3)))
        return mix.attention_head_outputs.save()

    edited = trace(routed, body)
    changed = (edited - clean).flatten(2).abs().amax(-1)[0] > 0
    assert not changed[:3].any() and changed[3] and changed[4]
