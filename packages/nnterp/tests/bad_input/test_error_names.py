"""Errors name what was asked for as the user wrote it, `layers[2].self_attn.attention_probabilities`, native path after.

Three mistakes, on a dense family, a Mamba and a hybrid: reading (or writing) out of
forward order, reading a value this load lacks, and asking a block for a module it
does not have. Each error keeps its class (nnsight's `OutOfOrderError`,
`nnterp.Unavailable`, `AttributeError`), and a missing module reads the same on
every block kind.
"""

import re
import warnings

import pytest
import torch
from nnsight.intervention.interleaver import OutOfOrderError

import nnterp
from nnterp import StandardizedTransformer
from nnterp.components import BlockModules, Standard

PROMPT = "The Eiffel Tower is in"
PASSED = "was requested but the model already ran past it"


@pytest.fixture(scope="module")
def mamba(path):
    return StandardizedTransformer(path("mamba"), dispatch=True)


@pytest.fixture(scope="module")
def jamba(path):
    """A hybrid: block 0 holds a Mamba mixer and a mixture, block 1 an attention and a dense MLP."""
    return StandardizedTransformer(path("jamba"), dispatch=True, attn_implementation="eager")


def out_of_order(model, body) -> OutOfOrderError:
    with pytest.raises(OutOfOrderError) as caught:
        with torch.no_grad(), model.trace(PROMPT):
            body(model)
    assert type(caught.value) is OutOfOrderError  # nnsight's own class, so `except OutOfOrderError` keeps working
    return caught.value


# == reading out of order ==============================================================================


def test_an_attention_value_read_after_the_attention_output_names_the_value(gpt2):
    def body(m):
        m.layers[1].self_attn.attention_output.save()
        m.layers[1].self_attn.attention_probabilities.save()

    message = str(out_of_order(gpt2, body))
    assert message.startswith(f"layers[1].self_attn.attention_probabilities {PASSED}: ")
    assert "model.order(1)" in message
    assert "(native location 'model.transformer.h.1.attn.source.attention_interface_1." in message


def test_an_earlier_block_read_after_a_later_one_names_the_block_value(llama):
    def body(m):
        m.layers[1].layer_output.save()
        m.layers[0].layer_output.save()

    message = str(out_of_order(llama, body))
    assert message.startswith(f"layers[0].layer_output {PASSED}: ")
    assert message.endswith("(native location 'model.model.layers.0.output.i0')")


def test_a_root_value_read_after_the_logits_names_the_root_value(gpt2):
    def body(m):
        m.logits.save()
        m.token_embeddings.save()

    message = str(out_of_order(gpt2, body))
    assert message.startswith(f"token_embeddings {PASSED}: ")
    assert "model.order" not in message  # a root value has no block order to point at
    assert "'model.transformer.wte.output.i0'" in message


def test_a_write_out_of_order_says_it_was_assigned(gpt2):
    def body(m):
        later = m.layers[1].layer_output.save()
        m.layers[0].layer_output = later

    message = str(out_of_order(gpt2, body))
    assert message.startswith("layers[0].layer_output was assigned but the model already ran past it: ")
    assert "'model.transformer.h.0.output.i0'" in message


def test_a_mamba_mixer_value_read_out_of_order_names_linear_attn(mamba):
    def body(m):
        m.layers[1].layer_output.save()
        m.layers[0].linear_attn.attention_output.save()

    message = str(out_of_order(mamba, body))
    assert message.startswith(f"layers[0].linear_attn.attention_output {PASSED}: ")
    assert "(native location 'model.backbone.layers.0.mixer." in message


def test_a_hybrid_mlp_value_read_out_of_order_names_the_standard_mlp(jamba):
    def body(m):
        m.layers[1].self_attn.attention_output.save()
        m.layers[0].mlp.mlp_output.save()

    message = str(out_of_order(jamba, body))
    assert message.startswith(f"layers[0].mlp.mlp_output {PASSED}: ")
    assert "(native location 'model.model.layers.0.feed_forward.output.i0')" in message


def test_an_open_loop_that_outruns_the_run_still_only_warns(gpt2):
    # nnsight tells a loop that outran the run from an error by the error object itself:
    # naming the value in place keeps that object, so the loop still ends with a warning.
    outputs = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.no_grad(), gpt2.generate(PROMPT, max_new_tokens=2) as tracer:
            for _ in tracer.iter[:]:
                outputs.append(gpt2.layers[0].layer_output.save())
    assert len(outputs) == 2
    assert any("never reached" in str(warning.message) for warning in caught)


def test_the_model_runs_after_an_out_of_order_read(gpt2):
    out_of_order(gpt2, lambda m: (m.layers[1].layer_output.save(), m.layers[0].layer_output.save()))
    with torch.no_grad(), gpt2.trace(PROMPT):
        out = gpt2.layers[0].layer_output.save()
    assert out.shape[0] == 1 and out.shape[-1] == gpt2.hidden_size


# == a value this load lacks =================================================================================


@pytest.mark.parametrize(
    ("name", "native"),
    [("gpt2", "model.transformer.h.0.attn"), ("llama", "model.model.layers.0.self_attn")],
)
def test_an_unavailable_attention_value_names_it_then_its_module(path, name, native):
    model = StandardizedTransformer(path(name))  # sdpa: the pattern is never built
    reason = model.support(layer=0)["self_attn.attention_probabilities"]
    expected = f"layers[0].self_attn.attention_probabilities (on {native}) is not available: {reason}"
    with pytest.raises(nnterp.Unavailable) as caught:
        with model.trace(PROMPT):
            model.layers[0].self_attn.attention_probabilities.save()
    assert str(caught.value) == expected
    with pytest.raises(nnterp.Unavailable, match=re.escape(expected)):
        with model.trace(PROMPT):
            model.layers[0].self_attn.attention_probabilities = torch.zeros(1)


def test_an_unavailable_mamba_state_names_the_mixer_value(path):
    model = StandardizedTransformer(path("mamba"))
    reason = model.support(layer=1)["linear_attn.states"]
    with pytest.raises(nnterp.Unavailable) as caught:
        with model.trace(PROMPT):
            model.layers[1].linear_attn.states.save()
    assert (
        str(caught.value)
        == f"layers[1].linear_attn.states (on model.backbone.layers.1.mixer) is not available: {reason}"
    )


def test_an_unavailable_hybrid_mixture_value_names_the_standard_mlp(jamba):
    with pytest.raises(nnterp.Unavailable) as caught:
        with jamba.trace(PROMPT):
            jamba.layers[0].mlp.mlp_activation.save()
    assert str(caught.value).startswith(
        "layers[0].mlp.mlp_activation (on model.model.layers.0.feed_forward) is not available: routed experts"
    )


def test_an_unavailable_vision_value_names_the_tower(path):
    model = StandardizedTransformer(path("llava"), task="image-text-to-text")
    with pytest.raises(nnterp.Unavailable) as caught:
        with model.trace(PROMPT):
            model.vision.layers[0].self_attn.attention_probabilities.save()
    assert str(caught.value).startswith(
        "vision.layers[0].self_attn.attention_probabilities (on model.model.vision_tower.encoder.layers.0.self_attn) "
        "is not available: read inside the eager attention forward"
    )


# == a module a block lacks =================================================================================


def missing(model, index: int, name: str) -> str:
    block = model.layers[index]
    assert getattr(block, name, None) is None  # still an AttributeError: getattr picks the blocks
    with pytest.raises(AttributeError) as caught:
        getattr(block, name)
    message = str(caught.value)
    assert re.fullmatch(
        rf"layers\[{index}\]\.{name}: no {name} module on this block \(it has [\w, ]+\); "
        rf"model\.support\(layer={index}\) lists what it serves, with a reason for each value it lacks "
        rf"\(native block {re.escape(block.path)}\)",
        message,
    ), message
    return message


@pytest.mark.parametrize(
    ("name", "index", "module", "instead"),
    [
        ("gpt2", 0, "linear_attn", "self_attn"),  # a dense block
        ("llama", 1, "linear_attn", "self_attn"),
        ("opt", 0, "mlp", "self_attn"),  # a dense block whose feed-forward runs inline
        ("mamba", 0, "mlp", "linear_attn"),  # a Mamba block: a norm and a mixer
        ("mamba", 1, "self_attn", "linear_attn"),
        ("jamba", 0, "self_attn", "linear_attn"),  # a hybrid's mixer block
        ("jamba", 1, "linear_attn", "self_attn"),  # and its attention block
        ("zamba2", 0, "mlp", "linear_attn"),
        ("nemotron_h", 0, "mlp", "linear_attn"),  # a hybrid whose blocks are plain layers
    ],
)
def test_a_missing_module_reads_the_same_on_every_block_kind(path, name, index, module, instead):
    model = StandardizedTransformer(path(name))
    message = missing(model, index, module)
    assert instead in message.split("(it has ")[1].split(")")[0]
    rows = model.support(layer=index)
    if module == "linear_attn" and name in ("gpt2", "llama"):
        # A recurrent mixer is no value of a dense family: support() lists self_attn and mlp on every family.
        assert not any(key.startswith("linear_attn.") for key in rows)
        return
    assert rows[f"{module}.attention_output" if module != "mlp" else "mlp.mlp_output"].startswith(
        f"no {module} module on this block"
    )


class _Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.self_attn = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.self_attn(x)


class _Blocks(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.h = torch.nn.ModuleList([_Block(), _Block()])


class _EngineBlock(BlockModules, Standard):
    """A block class of another engine: the wording comes from the mixin alone."""


@pytest.mark.parametrize("kind", [nnterp.components.Layer, _EngineBlock], ids=["transformers", "another-engine"])
def test_every_block_class_mixing_in_block_modules_says_the_same(kind):
    """The vLLM engine's block classes mix `BlockModules` in too (their own tests check it)."""
    from nnsight import Envoy

    model = Envoy(_Blocks(), rename={"h": "layers"}, envoys={_Block: kind})
    assert isinstance(model.layers[1], kind)
    message = missing(model, 1, "mlp")
    assert "(it has self_attn)" in message and message.endswith("(native block model.h.1)")
    with pytest.raises(AttributeError, match="has attribute 'no_such_name'"):
        model.layers[1].no_such_name  # noqa: B018 - a name that is no standard module keeps nnsight's error
