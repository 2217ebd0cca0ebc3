"""Expert ablation: a [block, expert] grid of changes in log p(target), and its first-token variant.

Runs on the pinned Granite-MoE checkpoint (two mixture blocks of 4 experts, 2 slots per token).
"""

import pytest
import torch

PROMPT = "The Eiffel Tower is in the city of"


@pytest.fixture(scope="module")
def granite(path):
    from nnterp import StandardizedTransformer

    return StandardizedTransformer(path("granitemoe"), dtype=torch.float32)


def sweep(model, blocks, target, skip_first_token=False):
    effects = torch.zeros(len(blocks), blocks[0].num_experts)
    for b, moe in enumerate(blocks):
        edited = []
        with torch.no_grad(), model.trace() as tracer:
            with tracer.invoke(PROMPT):
                clean = model.logits[0, -1].log_softmax(-1)[target].save()
            for e in range(moe.num_experts):
                with tracer.invoke(PROMPT):
                    hit = moe.expert_indices == e
                    if skip_first_token:
                        hit[:, 0] = False
                    moe.expert_weights[:] = moe.expert_weights.masked_fill(hit, 0)
                    edited.append(model.logits[0, -1].log_softmax(-1)[target].save())
        effects[b] = torch.stack(edited) - clean
    return effects


def test_expert_ablation_grid_and_first_token(granite):
    model = granite
    with torch.no_grad(), model.trace(PROMPT):
        top = model.logits[0, -1].argmax().save()
    target = int(top)
    blocks = [
        layer.mlp
        for i, layer in enumerate(model.layers)
        if model.support(layer=i).get("mlp.expert_weights", "absent") is None
    ]
    assert (len(blocks), blocks[0].num_experts, blocks[0].top_k) == (2, 4, 2)
    chosen = []
    with torch.no_grad(), model.trace(PROMPT):
        for moe in blocks:
            chosen.append(moe.expert_indices[0].save())

    effects = sweep(model, blocks, target)
    assert tuple(effects.shape) == (2, 4)
    # At the last block only the last token's experts reach the prediction; the rest are zero.
    last = blocks[-1]
    assert model.layers[-1].mlp is last
    for e in range(4):
        if e in chosen[-1][-1].tolist():
            assert abs(float(effects[-1, e])) > 1e-3, e
        else:
            assert abs(float(effects[-1, e])) < 1e-6, e
    # An expert that no token chose at a block has nothing to zero.
    for b in range(len(blocks)):
        for e in range(4):
            if e not in chosen[b].flatten().tolist():
                assert abs(float(effects[b, e])) < 1e-6, (b, e)
    assert bool((effects[0].abs() > 1e-3).any())

    # Leaving the first token out changes exactly the cells of the experts it chose before the last block.
    first = sweep(model, blocks, target, skip_first_token=True)
    for b in range(len(blocks)):
        for e in range(4):
            took_first = e in chosen[b][0].tolist() and b < len(blocks) - 1
            same = torch.allclose(first[b, e], effects[b, e], atol=1e-6)
            assert same != took_first, (b, e)
