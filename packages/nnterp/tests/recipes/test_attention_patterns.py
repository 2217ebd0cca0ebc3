"""Attention patterns: reading and scoring heads.

`attention_probabilities` is `[batch, num_heads, query, key]` on every family that runs
the eager attention; per-head scores are a few lines on the saved tensor, and the
pattern is the matrix the values are mixed with, so writing it moves the model.
"""

import torch

CLEAN = "The Eiffel Tower is in the city of"


def test_head_scores_from_the_pattern(demo):
    layer = demo.num_layers - 1
    with demo.trace(CLEAN):
        pattern = demo.layers[layer].self_attn.attention_probabilities.save()

    assert pattern.shape[1] == demo.num_heads and pattern.shape[2] == pattern.shape[3]
    assert torch.equal(pattern.tril(), pattern)  # causal
    assert torch.allclose(pattern.sum(-1), torch.ones(pattern.shape[:-1]), atol=1e-5)
    entropy = -(pattern * (pattern + 1e-12).log()).sum(-1).mean(-1)[0]  # [num_heads]
    previous = pattern.diagonal(offset=-1, dim1=-2, dim2=-1).mean(-1)[0]  # mass on key i-1
    first = pattern[0, :, 1:, 0].mean(-1)  # mass on key 0
    assert entropy.shape == previous.shape == first.shape == (demo.num_heads,)
    assert bool(((previous >= 0) & (previous <= 1)).all()) and bool((entropy >= 0).all())


def test_zeroing_a_heads_pattern_is_zeroing_its_outputs(demo):
    layer, head = 1, 0
    attn = demo.layers[layer].self_attn
    with demo.trace(CLEAN):
        clean = demo.logits.save()
    with demo.trace(CLEAN):
        attn.attention_probabilities[:, head] = 0
        by_pattern = demo.logits.save()
    with demo.trace(CLEAN):
        attn.attention_head_outputs[:, :, head] = 0
        by_outputs = demo.logits.save()
    assert not torch.allclose(by_pattern, clean)
    assert torch.allclose(by_pattern, by_outputs, atol=1e-5)
