"""Activation patching: pasting a value from a clean run into a corrupt one.

The clean and corrupt prompts (the `corrupt` fixture: another landmark, as many tokens)
tokenize to the same length, so positions correspond.
Patching the last block's `layer_output` at the last position hands the head the
clean stream there, so the patched distribution is the clean one exactly.
"""

import torch

CLEAN = "The Eiffel Tower is in the city of"


def test_patching_within_one_trace(demo, token, corrupt):
    paris = token(" Paris")
    last = demo.num_layers - 1
    with demo.trace(CLEAN):
        clean_resid = demo.layers[last].layer_output.save()
        clean_probs = demo.next_token_probs.save()
    with demo.trace() as tracer:
        with tracer.invoke(corrupt):
            baseline = demo.next_token_probs.save()
        with tracer.invoke(corrupt):
            demo.layers[last].layer_output[:, -1] = clean_resid[:, -1]
            patched = demo.next_token_probs.save()
    assert float(baseline[0, paris]) < float(clean_probs[0, paris])
    assert torch.allclose(patched, clean_probs, atol=1e-5)


def test_patching_across_invokes_with_a_barrier(demo, corrupt):
    last = demo.num_layers - 1
    with demo.trace(CLEAN):
        clean_probs = demo.next_token_probs.save()
    with demo.trace() as tracer:
        barrier = tracer.barrier(2)
        with tracer.invoke(CLEAN):
            source = demo.layers[last].layer_output[:, -1]
            barrier()
        with tracer.invoke(corrupt):
            barrier()
            demo.layers[last].layer_output[:, -1] = source
            patched = demo.next_token_probs.save()
    assert torch.allclose(patched[-1], clean_probs[0], atol=1e-5)


def test_a_layer_sweep_restores_the_answer(demo, token, corrupt):
    paris = token(" Paris")
    cache = []
    with demo.trace(CLEAN):
        for layer in demo.layers:
            cache.append(layer.layer_output.save())
        clean = demo.next_token_probs[0, paris].save()
    with demo.trace(corrupt):
        baseline = demo.next_token_probs[0, paris].save()
    sweep = []
    with demo.trace() as tracer:
        for i in range(demo.num_layers):
            with tracer.invoke(corrupt):
                demo.layers[i].layer_output[:, -1] = cache[i][:, -1]
                sweep.append(demo.next_token_probs[0, paris].save())
    p = [float(x) for x in sweep]
    assert all(value > float(baseline) for value in p), (p, float(baseline))  # every patch brings Paris back up
    assert abs(p[-1] - float(clean)) < 1e-5  # the last block's is the clean answer


def test_patching_one_contribution(demo, token, corrupt):
    paris = token(" Paris")
    last = demo.num_layers - 1
    with demo.trace(CLEAN):
        clean_attn = demo.layers[last].self_attn.attention_output.save()
        clean_mlp = demo.layers[last].mlp.mlp_output.save()
    with demo.trace() as tracer:
        with tracer.invoke(corrupt):
            baseline = demo.next_token_probs[0, paris].save()
        with tracer.invoke(corrupt):
            demo.layers[last].self_attn.attention_output[:, -1] = clean_attn[:, -1]
            attn = demo.next_token_probs[0, paris].save()
        with tracer.invoke(corrupt):
            demo.layers[last].mlp.mlp_output[:, -1] = clean_mlp[:, -1]
            mlp = demo.next_token_probs[0, paris].save()
    assert float(attn) != float(baseline) and float(mlp) != float(baseline)
