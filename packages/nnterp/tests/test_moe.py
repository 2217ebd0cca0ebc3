"""The mixture of experts (`nnterp.components.Moe`) on three scorings: Granite-MoE's top-k softmax,
Qwen2-MoE's softmax with a gated shared expert, and DeepSeek-V3's grouped sigmoid after a dense block."""

import pytest
import torch

import nnterp
from nnterp import StandardizedTransformer, Unavailable
from nnterp.components import NO_SHARED, ExpertIndices, ExpertOutputs, ExpertWeights, Moe, RouterLogits

PROMPT = "The Eiffel Tower is in"
OTHER = "def add(a, b): return a + b"
FAMILIES = ("granitemoe", "qwen2_moe", "deepseek_v3")


@pytest.fixture(scope="module", params=FAMILIES)
def moe_model(request, path):
    return StandardizedTransformer(path(request.param), dispatch=True, attn_implementation="eager")


def mixture(model):
    """The first block with a mixture, and its `Moe`."""
    for index, block in enumerate(model.layers):
        if isinstance(block.mlp, Moe):
            return index, block.mlp
    raise AssertionError("no mixture")


def test_layouts_are_exported():
    assert RouterLogits.dim_str == "batch seq num_experts"
    assert ExpertWeights.dim_str == ExpertIndices.dim_str == "batch seq top_k"
    assert ExpertOutputs.dim_str == "batch seq top_k hidden_size"
    assert nnterp.Moe is Moe and issubclass(Moe, nnterp.Mlp)


def test_scoring_is_named(moe_model):
    _, moe = mixture(moe_model)
    expected = {"granitemoe": "topk_softmax", "qwen2_moe": "softmax", "deepseek_v3": "sigmoid"}
    assert moe.SCORING == expected[moe_model.config.model_type]


def test_values_have_their_shapes_and_slots_sum_to_the_routed_output(moe_model):
    index, moe = mixture(moe_model)
    with torch.no_grad(), moe_model.trace(PROMPT):
        logits = moe.router_logits.save()
        weights = moe.expert_weights.save()
        indices = moe.expert_indices.save()
        slots = moe.expert_outputs.save()
        routed = moe.routed_output.save()
    n = logits.shape[1]
    assert tuple(logits.shape) == (1, n, moe.num_experts)
    assert tuple(weights.shape) == tuple(indices.shape) == (1, n, moe.top_k)
    assert indices.dtype == torch.int64
    assert tuple(slots.shape) == (1, n, moe.top_k, moe_model.hidden_size)
    assert torch.allclose(slots.sum(2), routed, atol=1e-6)


def test_written_router_logits_decide_the_routing(moe_model):
    _, moe = mixture(moe_model)
    forced = torch.full((moe.num_experts,), -10.0)
    forced[[2, 3]] = 10.0
    with torch.no_grad(), moe_model.trace(PROMPT):
        moe.router_logits[:, -1] = forced
        chosen = moe.expert_indices.save()
        weights = moe.expert_weights.save()
    assert sorted(chosen[0, -1].tolist()) == [2, 3]
    if moe.SCORING == "topk_softmax":  # the two forced experts share the weight
        assert torch.allclose(weights[0, -1], torch.tensor([0.5, 0.5]))


def test_ablating_an_expert_removes_exactly_its_slots(moe_model):
    _, moe = mixture(moe_model)
    with torch.no_grad(), moe_model.trace(PROMPT):
        indices = moe.expert_indices.save()
        slots = moe.expert_outputs.save()
        routed = moe.routed_output.save()
    expert = int(indices[0, -1, 0])
    with torch.no_grad(), moe_model.trace(PROMPT):
        moe.expert_weights = moe.expert_weights.masked_fill(moe.expert_indices == expert, 0)
        ablated = moe.routed_output.save()
    kept = slots.masked_fill((indices == expert).unsqueeze(-1), 0).sum(2)
    assert torch.allclose(ablated, kept, atol=1e-6)
    assert not torch.allclose(ablated, routed)


def test_rerouting_keeps_the_weight(moe_model):
    _, moe = mixture(moe_model)
    with torch.no_grad(), moe_model.trace(PROMPT):
        weights = moe.expert_weights.save()
        indices = moe.expert_indices.save()
    target = next(e for e in range(moe.num_experts) if e not in indices[0, -1].tolist())
    with torch.no_grad(), moe_model.trace(PROMPT):
        rerouted = moe.expert_indices.clone()
        rerouted[:, -1, 0] = target
        moe.expert_indices = rerouted
        kept = moe.expert_weights.save()
        seen = moe.expert_indices.save()
    assert torch.equal(kept, weights)
    assert int(seen[0, -1, 0]) == target


def test_in_place_routing_edits_stay_in_their_invoke(moe_model):
    _, moe = mixture(moe_model)
    with torch.no_grad(), moe_model.trace() as tracer:
        with tracer.invoke(PROMPT):
            base = moe.routed_output.save()
        with tracer.invoke(PROMPT):
            moe.expert_weights[:] = 0
            edited = moe.routed_output.save()
        with tracer.invoke(PROMPT):
            after = moe.routed_output.save()
    assert base.shape[0] == edited.shape[0] == 1
    assert torch.equal(edited, torch.zeros_like(edited))
    # The rows share one grouped matmul per expert, which can round a row by the batch around it.
    assert torch.allclose(after, base, atol=1e-6) and bool(base.abs().sum() > 0)


def test_an_assignment_is_spliced_into_its_invoke(moe_model):
    _, moe = mixture(moe_model)
    with torch.no_grad(), moe_model.trace() as tracer:
        with tracer.invoke(PROMPT):
            base = moe.routed_output.save()
        with tracer.invoke(PROMPT):
            moe.routed_output = torch.zeros_like(moe.routed_output)
            mid = moe.routed_output.save()
        with tracer.invoke(PROMPT):
            after = moe.routed_output.save()
    assert torch.equal(mid, torch.zeros_like(mid))
    assert torch.allclose(after, base, atol=1e-6) and bool(base.abs().sum() > 0)


def test_pad_tokens_are_routed(moe_model):
    _, moe = mixture(moe_model)
    with torch.no_grad(), moe_model.trace([PROMPT, OTHER]):
        mask = moe_model.attention_mask.save()
        indices = moe.expert_indices.save()
    assert indices.shape[:2] == mask.shape
    assert not bool(mask.all()), "the prompts tokenize to the same length"
    padded = ~mask.bool()
    assert bool(((indices[padded] >= 0) & (indices[padded] < moe.num_experts)).all())


def test_read_order_puts_the_router_first(moe_model):
    index, _ = mixture(moe_model)
    order = moe_model.order(index)
    ranks = [
        order[f"mlp.{name}"]
        for name in ("router_logits", "expert_weights", "expert_outputs", "routed_output", "mlp_output")
    ]
    assert ranks == sorted(ranks) and ranks[0] < ranks[1] < ranks[2] < ranks[3] < ranks[4]
    assert order["mlp.expert_weights"] == order["mlp.expert_indices"]
    if "mlp.shared_expert_output" in order:
        assert order["mlp.routed_output"] < order["mlp.shared_expert_output"] < order["mlp.mlp_output"]


def test_granite_mlp_output_is_the_scaled_routed_output(path):
    model = StandardizedTransformer(path("granitemoe"), dispatch=True)
    moe = model.layers[0].mlp
    with torch.no_grad(), model.trace(PROMPT):
        routed = moe.routed_output.save()
        contribution = moe.mlp_output.save()
    assert torch.equal(contribution, routed * model.config.residual_multiplier)
    assert model.support(layer=0)["mlp.shared_expert_output"] == NO_SHARED
    with pytest.raises(Unavailable, match=NO_SHARED):
        with model.trace(PROMPT):
            moe.shared_expert_output.save()


def test_expert_outputs_need_the_grouped_experts(path):
    model = StandardizedTransformer(path("granitemoe"), dispatch=True, experts_implementation="eager")
    reason = model.support(layer=0)["mlp.expert_outputs"]
    assert reason.startswith("read inside transformers' grouped_mm / batched_mm experts forward")
    assert "'eager'" in reason and "experts_implementation='grouped_mm'" in reason
    for name in ("router_logits", "expert_weights", "expert_indices", "routed_output", "mlp_output"):
        assert model.support(layer=0)[f"mlp.{name}"] is None, name
    with torch.no_grad(), model.trace(PROMPT):
        routed = model.layers[0].mlp.routed_output.save()
    assert routed.shape[-1] == model.hidden_size


def test_a_dense_block_beside_mixtures_reports_per_block(path):
    model = StandardizedTransformer(path("deepseek_v3"), dispatch=True, attn_implementation="eager")
    support = model.support()
    for name in ("router_logits", "expert_weights", "expert_indices", "expert_outputs", "routed_output"):
        assert support[f"mlp.{name}"] == {0: f"the mlp on this block has no {name}"}, name
    assert support["mlp.mlp_neurons"] == {1: "routed experts; read per-expert via the Moe component"}
    blocks = [i for i in range(model.num_layers) if model.support(layer=i).get("mlp.expert_weights", "absent") is None]
    assert blocks == [1]


def test_shared_expert_output_adds_to_the_routed_output(path):
    for name in ("qwen2_moe", "deepseek_v3"):
        model = StandardizedTransformer(path(name), dispatch=True)
        _, moe = mixture(model)
        with torch.no_grad(), model.trace(PROMPT):
            routed = moe.routed_output.save()
            shared = moe.shared_expert_output.save()
            output = moe.mlp_output.save()
        assert torch.allclose(routed + shared, output, atol=1e-6), name
        with torch.no_grad(), model.trace(PROMPT):
            moe.shared_expert_output[:] = 0
            alone = moe.mlp_output.save()
        assert torch.allclose(alone, routed, atol=1e-6), name


def test_expert_outputs_under_the_batched_experts(path):
    model = StandardizedTransformer(path("granitemoe"), dispatch=True, experts_implementation="batched_mm")
    moe = model.layers[0].mlp
    assert model.support(layer=0)["mlp.expert_outputs"] is None
    with torch.no_grad(), model.trace(PROMPT):
        slots = moe.expert_outputs.save()
        routed = moe.routed_output.save()
    assert torch.allclose(slots.sum(2), routed, atol=1e-6)
