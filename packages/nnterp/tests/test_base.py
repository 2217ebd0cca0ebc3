"""The descriptors: paths, select, writes, markers, derived values, layouts and axis sizes."""

import pytest
import torch

import nnterp
from nnterp import Attention, DerivedEProperty, EProperty, Layer, StandardizedTransformer, axis_size
from nnterp.components import Keys, Pattern, Queries, Residual, interface_reason, unavailable
from nnterp.families import bloom, gpt2, opt

PROMPT = "The Eiffel Tower is in"


def entropy(attn) -> Pattern:
    probs = attn.attention_probabilities
    return -(probs * probs.clamp_min(1e-12).log()).sum(-1, keepdim=True).expand_as(probs)


class Probe(gpt2.Attention):
    @EProperty(
        "source.attention_interface_1.inputs",
        select=4,
        description="The mask the interface is called with",
        unavailable=interface_reason,
    )
    def mask(self, value) -> Pattern:
        return value

    @EProperty(
        "source.attention_interface_1.source.torch_matmul_0.output",
        description="Raw scores before the scaling",
        unavailable=interface_reason,
    )
    def raw_scores(self, value) -> Pattern:
        return value

    @EProperty("../ln_2.output", description="The MLP's pre-norm output, read from the attention")
    def sibling_norm(self, value) -> Residual:
        return value

    @EProperty("/embed_tokens.output", description="The token embeddings, read from the root")
    def from_root(self, value) -> Residual:
        return value

    @EProperty(
        "source.attention_interface_1.source.no_such_op_0.output",
        description="A path this run lacks",
        unavailable=interface_reason,
    )
    def broken(self, value):
        return value

    pattern_entropy = DerivedEProperty(entropy, description="Entropy of each row of the pattern")
    attention_head_outputs = unavailable("dropped on purpose for this test")

    @property
    def off_probe(self):
        return None


@pytest.fixture(scope="module")
def probe(path):
    from transformers.models.gpt2.modeling_gpt2 import GPT2Attention

    return StandardizedTransformer(
        path("gpt2"), dispatch=True, attn_implementation="eager", envoys={GPT2Attention: Probe}
    )


def test_layouts_are_read_off_the_annotation():
    assert Layer.layer_output.layout is Residual
    assert Layer.layer_output.dims == ("batch", "seq", "hidden_size")
    assert Attention.attention_queries.dims == ("batch", "num_heads", "seq", "qk_head_dim")
    assert Attention.attention_keys.layout is Keys
    assert gpt2.Attention.attention_keys.layout is Keys
    assert opt.Layer.layer_mid.dims == ("tokens", "hidden_size")
    assert (
        str(Attention.attention_queries)
        == "(attention_queries) -> Queries [batch num_heads seq qk_head_dim]: The queries entering attention"
    )
    assert StandardizedTransformer.input_size.layout is None


def test_isinstance_checks_rank_and_dtype():
    q = torch.zeros(1, 4, 5, 8)
    assert isinstance(q, Queries)
    assert not isinstance(q[0], Queries)
    assert not isinstance(q.long(), Queries)


def test_inside_forward_and_keys():
    assert Probe.sibling_norm.inside_forward() is False
    assert Probe.raw_scores.inside_forward() is True
    assert Probe.sibling_norm.key == "../ln_2.output"


def test_paths_with_select_parent_root_and_drill_resolve(probe):
    attn = probe.layers[0].self_attn
    with probe.trace(PROMPT):
        emb = attn.from_root.save()
        mask = attn.mask.save()
        raw = attn.raw_scores.save()
        scores = attn.attention_scores.save()
        ent = attn.pattern_entropy.save()
        normed = attn.sibling_norm.save()
        ln2 = probe.layers[0].ln_2.output.save()
    with probe.trace(PROMPT):
        token_embeddings = probe.token_embeddings.save()
    assert torch.equal(emb, token_embeddings)
    assert torch.equal(normed, ln2)
    assert torch.allclose(raw * attn._module.scaling + mask, scores)
    assert ent.shape == scores.shape


def test_a_write_through_select_replaces_one_argument(probe):
    attn = probe.layers[0].self_attn
    with probe.trace(PROMPT):
        clean = probe.logits.save()
    with probe.trace(PROMPT):
        attn.mask = torch.zeros_like(attn.mask)  # no causal mask: every query sees the future
        unmasked = probe.logits.save()
    assert not torch.allclose(clean[:, 0], unmasked[:, 0])


def test_a_marker_is_listed_and_raises_before_the_model_runs(probe):
    attn = probe.layers[0].self_attn
    assert attn.support()["attention_head_outputs"] == "dropped on purpose for this test"
    assert "(attention_head_outputs): Unavailable: dropped on purpose for this test" in repr(attn)
    with pytest.raises(
        nnterp.Unavailable,
        match=r"^layers\[0\]\.self_attn\.attention_head_outputs \(on model\.transformer\.h\.0\.attn\) is not available: dropped",
    ):
        with probe.trace(PROMPT):
            attn.attention_head_outputs.save()
    with pytest.raises(nnterp.Unavailable):
        hasattr(attn, "attention_head_outputs")
    assert not issubclass(nnterp.Unavailable, AttributeError)
    assert issubclass(nnterp.Unavailable, RuntimeError)


def test_a_missing_operation_names_the_value_and_the_path(probe):
    from nnsight.intervention.source import SourceNotAvailable

    with pytest.raises(
        SourceNotAvailable,
        match=r"model.transformer.h.0.attn.broken reads 'source.attention_interface_1.source.no_such_op_0.output', which this run does not have.*available: .*torch_matmul_0",
    ):
        with probe.trace(PROMPT):
            probe.layers[0].self_attn.broken.save()


def test_a_derived_value_is_read_only(probe):
    with pytest.raises(AttributeError, match="pattern_entropy is derived and read-only"):
        with probe.trace(PROMPT):
            probe.layers[0].self_attn.pattern_entropy = torch.zeros(1)


def test_a_predicate_raising_attribute_error_becomes_a_runtime_error():
    class Broken(gpt2.Attention):
        @EProperty(
            "output", description="A value with a buggy check", unavailable=lambda envoy: envoy.no_such_thing_here
        )
        def buggy(self, value) -> Residual:
            return value

    class Host:
        path = "host"
        no_such = None

        def __getattr__(self, name):
            raise AttributeError(name)

    with pytest.raises(RuntimeError, match="availability check of 'buggy'"):
        Broken.buggy.reason(Host())


def test_a_tuple_returning_block_is_unwrapped_and_rewrapped(path):
    model = StandardizedTransformer(path("bloom"), dispatch=True)
    assert bloom.Layer.returns_tuple
    with model.trace(PROMPT):
        raw = model.layers[1].output.save()
        out = model.layers[1].layer_output.save()
    assert isinstance(raw, tuple) and isinstance(out, torch.Tensor) and torch.equal(raw[0], out)
    with model.trace(PROMPT):
        model.layers[1].layer_output = torch.zeros_like(model.layers[1].layer_output)
        after = model.layers[1].output.save()
        nxt = model.layers[2].layer_input.save()
    assert isinstance(after, tuple) and len(after) == len(raw)
    assert torch.equal(nxt, torch.zeros_like(nxt))


def test_axis_size_resolves_up_the_tree(gpt2):
    attn = gpt2.layers[0].self_attn
    assert axis_size(attn, "num_heads") == gpt2.num_heads
    assert axis_size(attn, "head_dim") == gpt2.head_dim
    assert axis_size(gpt2.layers[0], "hidden_size") == gpt2.hidden_size
    assert axis_size(gpt2, "vocab_size") == gpt2.vocab_size
    with pytest.raises(
        ValueError, match="axis 'key' of a value on model.transformer.h.0.attn is not a fact about the model"
    ):
        axis_size(attn, "key")


def test_values_lists_every_value_of_a_class():
    assert sorted(gpt2.Attention.values()) == [
        "attention_head_outputs",
        "attention_keys",
        "attention_output",
        "attention_premix",
        "attention_probabilities",
        "attention_queries",
        "attention_scores",
        "attention_values",
    ]


def test_probs_to_dict_keeps_tokens_that_decode_alike(gpt2):
    tokenizer = gpt2.tokenizer
    probs = torch.zeros(gpt2.vocab_size)
    clash = [i for i in range(gpt2.vocab_size) if tokenizer.decode([i]) == "\ufffd"][:2]
    assert len(clash) == 2, "the byte-level vocabulary has partial UTF-8 tokens"
    probs[clash[0]], probs[clash[1]], probs[5] = 0.5, 0.3, 0.2
    result = gpt2.probs_to_dict(probs, k=3)
    assert len(result) == 3
    assert list(result.values()) == pytest.approx([0.5, 0.3, 0.2])
    assert tokenizer.convert_ids_to_tokens(clash[0]) in result
    with pytest.raises(ValueError, match="one \\[vocab_size\\] distribution"):
        gpt2.probs_to_dict(probs[None], k=3)


class CopyMlp(gpt2.Mlp):
    """A value served as a copy: a transform hands an in-place edit back to the model."""

    @EProperty("output", description="What the MLP adds, served as a copy")
    def mlp_copy(self, value) -> Residual:
        return value.clone()

    @mlp_copy.transform
    def mlp_copy(self, view, raw):
        return view.clone()


def test_a_transform_carries_an_edit_on_a_copy_back(path):
    from transformers.models.gpt2.modeling_gpt2 import GPT2MLP

    model = StandardizedTransformer(path("gpt2"), dispatch=True, envoys={GPT2MLP: CopyMlp})
    block = model.layers[0]
    with model.trace(PROMPT):
        x = block.layer_input.save()
        attn = block.self_attn.attention_output.save()
        block.mlp.mlp_copy[:] = 0
        out = block.layer_output.save()
    assert torch.allclose(out, x + attn, atol=1e-6)


def test_all_families_imports_every_shipped_module():
    from nnterp import families

    shipped = families.all_families()
    assert set(shipped) == set(families.known())
    assert all(hasattr(module, "RENAME") and hasattr(module, "ENVOYS") for module in shipped.values())


def test_a_read_outside_a_trace_is_nnsights_value_error(gpt2):
    with pytest.raises(ValueError, match="Cannot access `model.transformer.h.0.output` outside of interleaving"):
        hasattr(gpt2.layers[0], "layer_output")
    with pytest.raises(ValueError, match="outside of interleaving"):
        gpt2.layers[0].self_attn.attention_probabilities  # noqa: B018
