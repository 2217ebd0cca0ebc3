"""Contribution decomposition: direct logit attribution over the standard contributions.

The stream leaving the last block is the stream entering block 0 plus every
`attention_output` and `mlp_output`. Freezing the final norm's scale at the real
stream makes it linear, so each term's share of a logit difference is its frozen-normed
vector times the difference of two unembedding rows, and the shares sum to the
model's own logit difference.
"""

import torch

CLEAN = "The Eiffel Tower is in the city of"


def test_attributions_sum_to_the_logit_difference(demo, token):
    paris, rome = token(" Paris"), token(" Rome")
    parts = {}
    with demo.trace(CLEAN):
        base = demo.layers[0].layer_input.save()
        for i, layer in enumerate(demo.layers):
            parts["attn", i] = layer.self_attn.attention_output.save()
            parts["mlp", i] = layer.mlp.mlp_output.save()
        final = demo.layers[-1].layer_output.save()
        logits = demo.logits[0, -1].save()

    assert torch.allclose(base + sum(parts.values()), final, atol=1e-4)

    norm, head = demo.norm._module, demo.lm_head._module
    x = final[0, -1]
    with torch.no_grad():
        eps = norm.variance_epsilon  # Llama's RMSNorm: no centering, no bias
        scale = (x.pow(2).mean() + eps).rsqrt()  # the one nonlinear step, frozen
        frozen = lambda t: norm.weight * t * scale  # noqa: E731
        row = head.weight[paris] - head.weight[rome]
        dla = {key: float(frozen(part[0, -1]) @ row) for key, part in parts.items()}
        dla["base"] = float(frozen(base[0, -1]) @ row)
    difference = float(logits[paris] - logits[rome])
    assert abs(sum(dla.values()) - difference) < 1e-3 * max(1.0, abs(difference))
    assert difference > 0  # the model prefers Paris


def test_the_heads_sum_to_the_attention_contribution(demo):
    attention = demo.layers[1].self_attn
    with demo.trace(CLEAN):
        heads = attention.attention_head_outputs.save()  # [batch, seq, num_heads, head_dim]
        contribution = attention.attention_output.save()
    weight = attention.o_proj._module.weight.t()  # [num_heads * head_dim, hidden_size]
    H, D = heads.shape[2], heads.shape[3]
    per_head = torch.einsum("bshd,hdo->bsho", heads, weight.reshape(H, D, -1))
    assert torch.allclose(per_head.sum(2), contribution, atol=1e-5)
