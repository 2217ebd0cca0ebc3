"""The own-arithmetic attention base: its shapes invert on writes, and its values keep the base contract."""

import torch

from nnterp.components import Attention, OwnAttention, own_arithmetic, own_value
from nnterp.components.own_attention import (
    AS_IS,
    FOLDED_HEADS,
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    MERGED_HEADS,
    chain,
    folded,
)


class Heads:
    num_heads = 4
    num_kv_heads = 2


def test_every_shape_round_trips():
    host = Heads()
    served = {
        MERGED_HEADS: torch.randn(2, 5, 4 * 3),
        HEADS_FIRST: torch.randn(2, 4, 5, 3),
        KEYS_TRANSPOSED: torch.randn(2, 4, 3, 5),
        FOLDED_HEADS: torch.randn(2 * 4, 5, 3),
        folded(lambda a: a.num_kv_heads): torch.randn(2 * 2, 5, 3),
        chain(FOLDED_HEADS, KEYS_TRANSPOSED): torch.randn(2 * 4, 3, 5),
        chain(FOLDED_HEADS, HEADS_FIRST): torch.randn(2 * 4, 5, 3),
        AS_IS: torch.randn(2, 4, 5, 3),
    }
    for (read, write), value in served.items():
        standard = read(host, value)
        assert torch.equal(write(host, standard), value)


def test_the_standard_layouts_come_out():
    host = Heads()
    assert MERGED_HEADS[0](host, torch.zeros(2, 5, 12)).shape == (2, 5, 4, 3)
    assert FOLDED_HEADS[0](host, torch.zeros(8, 5, 6)).shape == (2, 4, 5, 6)
    assert chain(FOLDED_HEADS, KEYS_TRANSPOSED)[0](host, torch.zeros(8, 3, 5)).shape == (2, 4, 5, 3)
    assert chain(FOLDED_HEADS, HEADS_FIRST)[0](host, torch.zeros(8, 5, 3)).shape == (2, 5, 4, 3)


def test_a_value_keeps_the_base_layout_and_description():
    value = own_value("attention_scores", "source.softmax_0.input")
    base = Attention.values()["attention_scores"]
    assert value.layout is base.layout and value.description == base.description
    assert value.unavailable is own_arithmetic and value.inside_forward()
    described = own_value("attention_output", "source.add_0.input", description="What it adds")
    assert described.description == "What it adds"


def test_the_interior_needs_no_interface():
    class Family(OwnAttention):
        attention_scores = own_value("attention_scores", "source.softmax_0.input")

    envoy = Family.__new__(Family)
    assert envoy.off_interface() is None
    assert Family.attention_scores.reason(envoy) is None
    assert Family.attention_scores.name == "attention_scores"
