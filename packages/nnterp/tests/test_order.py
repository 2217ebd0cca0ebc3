"""The measured forward order of a block's values, and read-order errors."""

import pytest
from nnsight.intervention.interleaver import OutOfOrderError

FULL = [
    "layer_input",
    "attention_norm_output",
    "self_attn.attention_queries",
    "self_attn.attention_keys",
    "self_attn.attention_values",
    "self_attn.attention_scores",
    "self_attn.attention_probabilities",
    "self_attn.attention_head_outputs",
    "self_attn.attention_premix",
    "self_attn.attention_output",
    "layer_mid",
    "mlp_norm_output",
    "mlp_input",
    "mlp.mlp_activation",
    "mlp.mlp_neurons",
    "mlp.mlp_output",
    "layer_output",
]


def test_order_of_a_sequential_block(llama):
    order = llama.order(1)
    assert list(order) == FULL
    assert (
        order["self_attn.attention_queries"] == order["self_attn.attention_keys"] == order["self_attn.attention_values"]
    )
    ranks = [order[name] for name in FULL]
    assert ranks == sorted(ranks) and ranks[-1] == 14
    assert llama.rank("layer_output", 1) == ("block", 14)
    assert llama.rank("logits")[0] == "root"


def test_order_of_a_parallel_block_has_no_layer_mid(path):
    from nnterp import StandardizedTransformer

    model = StandardizedTransformer(path("gpt_neox"), dispatch=True, attn_implementation="eager")
    order = model.order(0)
    assert "layer_mid" not in order
    assert order["self_attn.attention_output"] < order["mlp_norm_output"] < order["layer_output"]


def test_reading_out_of_order_raises(gpt2):
    attn = gpt2.layers[1].self_attn
    with pytest.raises(
        OutOfOrderError,
        match=r"^layers\[1\]\.self_attn\.attention_probabilities was requested but the model already ran past it: "
        r".*model\.order\(1\).*'model\.transformer\.h\.1\.attn\.source\.",
    ):
        with gpt2.trace("The Eiffel Tower is in"):
            attn.attention_output.save()
            attn.attention_probabilities.save()


def test_rank_of_an_unknown_value(llama):
    with pytest.raises(KeyError, match="support"):
        llama.rank("no_such_value", 0)


def test_order_follows_a_function_key(path):
    from nnterp import StandardizedTransformer

    model = StandardizedTransformer(path("bloom"), dispatch=True)
    order = model.order(1)
    # BLOOM's keys and values come out of the cache update, after the queries leave _reshape
    assert (
        order["self_attn.attention_queries"] < order["self_attn.attention_keys"] == order["self_attn.attention_values"]
    )
    assert list(order)[-1] == "layer_output"


def test_a_key_above_the_host_resolves_aliases(gpt2):
    from nnterp.components.eproperty import resolve

    host = gpt2.layers[1].self_attn
    by_alias, _ = resolve(host, "../post_attention_layernorm.output", walk=False)
    by_name, _ = resolve(host, "../ln_2.output", walk=False)
    assert by_alias == by_name == f"{gpt2.layers[1].path}.ln_2.output"
    drilled, _ = resolve(host, "../source.self_attn_0.output", walk=False)
    assert drilled == f"{gpt2.layers[1].path}.source.self_attn_0.output"
    with pytest.raises(AttributeError):
        resolve(host, "../no_such_module.output", walk=False)
