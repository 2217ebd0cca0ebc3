"""Ablation: removing a contribution, a head or a block range, and measuring P(Paris).

The clean and ablated runs are invokes of one trace; a write in one invoke touches
only that invoke's rows. `skip_layers` covers every row, so it gets a trace of its own.
"""

import torch

CLEAN = "The Eiffel Tower is in the city of"


def test_ablations_of_attention_mlp_head_and_blocks(demo, token):
    paris = token(" Paris")
    layer, head = demo.num_layers - 1, 0
    block = demo.layers[layer]
    runs = {}
    with torch.no_grad(), demo.trace() as tracer:
        with tracer.invoke(CLEAN):
            runs["clean"] = demo.next_token_probs[0, paris].save()
        with tracer.invoke(CLEAN):
            block.self_attn.attention_output[:] = 0
            runs["attention"] = demo.next_token_probs[0, paris].save()
        with tracer.invoke(CLEAN):
            block.mlp.mlp_output[:] = 0
            runs["mlp"] = demo.next_token_probs[0, paris].save()
        with tracer.invoke(CLEAN):
            block.self_attn.attention_head_outputs[..., head, :] = 0
            runs["head"] = demo.next_token_probs[0, paris].save()
    with torch.no_grad(), demo.trace(CLEAN):
        demo.skip_layers(1, demo.num_layers - 1)
        runs["blocks"] = demo.next_token_probs[0, paris].save()

    for name in ("attention", "mlp", "head", "blocks"):
        assert abs(float(runs[name]) - float(runs["clean"])) > 1e-4, name
    assert float(runs["blocks"]) < float(runs["clean"])  # the later blocks carry the answer

    with torch.no_grad(), demo.trace(CLEAN):  # an invoke's write is its own
        block.mlp.mlp_output[:] = 0
        alone = demo.next_token_probs[0, paris].save()
    assert torch.allclose(alone, runs["mlp"], atol=1e-6)


def test_mean_ablation_replaces_with_the_reference_mean(demo):
    layer = demo.num_layers - 1
    reference = ["The capital of France is", "The Colosseum is in the city of", "Big Ben is in the city of"]
    with torch.no_grad(), demo.trace(reference):
        mean = demo.layers[layer].mlp.mlp_output[:, -1].mean(0).save()
    with torch.no_grad(), demo.trace(CLEAN):
        demo.layers[layer].mlp.mlp_output[:, -1] = mean
        out = demo.layers[layer].mlp.mlp_output[0, -1].save()
    assert torch.allclose(out, mean)
