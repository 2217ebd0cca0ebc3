"""`support()` lists every standard value of the family, with the reason for each one a block lacks.

A module no block has (Mamba-2's `mlp`, its `self_attn`) keeps its values' keys, and
`support(layer=i)` keeps the keys of a module that block of a hybrid lacks, so a
missing key never stands for a missing value: `support()` is how to list what a
model lacks entirely.
"""

import pytest

import nnterp
from nnterp import StandardizedTransformer
from nnterp.components.standard import NOT_HERE, NOWHERE
from nnterp.encoders import ENCODER_VALUES
from nnterp.standardized import _root_values


def block_keys(model) -> list[str]:
    """Every block value a block of this model serves, by its support key."""
    keys: dict[str, None] = {}
    for block in model.layers:
        keys.update(dict.fromkeys(type(block).values()))
        for prefix in ("self_attn", "linear_attn", "mlp"):
            host = getattr(block, prefix, None)
            if host is not None:
                keys.update(dict.fromkeys(f"{prefix}.{name}" for name in type(host).values()))
    return list(keys)


@pytest.fixture(scope="module")
def mamba2(path):
    return StandardizedTransformer(path("mamba2"))


def test_a_module_no_block_has_keeps_every_key_with_the_reason(mamba2):
    support = mamba2.support()
    count = mamba2.num_layers
    for prefix, base in (("mlp", nnterp.Mlp), ("self_attn", nnterp.Attention)):
        for name in base.values():
            assert support[f"{prefix}.{name}"] == dict.fromkeys(range(count), NOWHERE.format(prefix)), name
    for index in range(count):
        rows = mamba2.support(layer=index)
        assert rows["mlp.mlp_output"] == "no mlp module on this block: no block of this model has one"
        assert rows["self_attn.attention_probabilities"] == NOWHERE.format("self_attn")


@pytest.mark.parametrize("name", ["mamba2", "jamba", "qwen3_next", "zamba2"])
def test_every_standard_value_of_the_family_has_a_key(path, name):
    model = StandardizedTransformer(path(name))
    support = model.support()
    # Every root value of a decoder, an encoder's mask values left out (no decoder has them).
    roots = {name for name in _root_values(type(model)) if name not in ENCODER_VALUES}
    expected = roots | set(block_keys(model))
    expected |= {f"self_attn.{value}" for value in nnterp.Attention.values()}
    expected |= {f"mlp.{value}" for value in nnterp.Mlp.values()}
    assert set(support) == expected
    block = [key for key in support if key not in roots]
    for index in range(model.num_layers):
        # One block's form lists the same block values, in the same order, as the model's.
        assert list(model.support(layer=index)) == block


@pytest.mark.parametrize("name", ["jamba", "qwen3_next"])
def test_a_hybrid_block_keeps_the_keys_of_the_module_it_lacks(path, name):
    model = StandardizedTransformer(path(name))
    attention = [i for i, layer in enumerate(model.layers) if getattr(layer, "self_attn", None) is not None]
    mixers = [i for i, layer in enumerate(model.layers) if getattr(layer, "linear_attn", None) is not None]
    assert attention and mixers, "the tiny checkpoint keeps a block of each kind"
    support = model.support()
    for index in mixers:
        rows = model.support(layer=index)
        for value in type(model.layers[attention[0]].self_attn).values():
            assert rows[f"self_attn.{value}"] == NOT_HERE.format("self_attn"), value
            assert support[f"self_attn.{value}"][index] == NOT_HERE.format("self_attn"), value
    for index in attention:
        rows = model.support(layer=index)
        for value in type(model.layers[mixers[0]].linear_attn).values():
            assert rows[f"linear_attn.{value}"] == "no linear_attn module on this block", value
            assert support[f"linear_attn.{value}"][index] == "no linear_attn module on this block", value


def test_a_dense_block_beside_mixtures_keeps_the_mixture_keys(path):
    model = StandardizedTransformer(path("jamba"))
    moe = nnterp.components.Moe
    dense = [i for i, layer in enumerate(model.layers) if not isinstance(layer.mlp, moe)]
    mixture = [i for i, layer in enumerate(model.layers) if isinstance(layer.mlp, moe)]
    assert dense and mixture
    rows = model.support(layer=dense[0])
    for value in ("router_logits", "expert_weights", "expert_indices"):
        assert rows[f"mlp.{value}"] == f"the mlp on this block has no {value}"
    assert model.support(layer=mixture[0])["mlp.router_logits"] is None
    # The guard the recipes use picks the mixture blocks alone.
    picked = [i for i in range(model.num_layers) if model.support(layer=i).get("mlp.expert_weights", "absent") is None]
    assert picked == mixture


def test_an_unavailable_key_raises_its_reason_at_the_read(mamba2):
    reason = mamba2.support(layer=0)["mlp.mlp_output"]
    with pytest.raises(AttributeError, match=r"layers\[0\]\.mlp: no mlp module on this block"):
        mamba2.layers[0].mlp  # noqa: B018
    assert reason.startswith("no mlp module on this block")
