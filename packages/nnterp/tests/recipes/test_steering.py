"""Steering: a direction from contrasting prompts, added to the residual stream.

The direction is the difference of `layer_output` at the last position between a
prompt whose answer is Paris and one whose answer is Rome; adding it to a Rome prompt
moves the next-token distribution toward Paris, and subtracting it moves it away.
"""

import torch


def test_a_contrast_direction_moves_the_next_token(demo, token):
    paris = token(" Paris")
    layer = demo.num_layers // 2
    with demo.trace() as tracer:
        with tracer.invoke("The capital of France is"):
            positive = demo.layers[layer].layer_output[0, -1].save()
        with tracer.invoke("The capital of Italy is"):
            negative = demo.layers[layer].layer_output[0, -1].save()
    direction = positive - negative
    direction = direction / direction.norm()

    prompt = "The Colosseum is in the city of"
    with torch.no_grad(), demo.trace(prompt):
        scale = demo.layers[layer].layer_output[0, -1].norm().save()
    factor = float(scale)
    with demo.trace() as tracer:
        with tracer.invoke(prompt):
            baseline = demo.next_token_probs.save()
        with tracer.invoke(prompt):
            demo.steer(layer, direction, factor=factor, token_positions=-1)
            toward = demo.next_token_probs.save()
        with tracer.invoke(prompt):
            demo.steer(layer, direction, factor=-factor, token_positions=-1)
            away = demo.next_token_probs.save()
    assert float(toward[0, paris]) > float(baseline[0, paris]) > float(away[0, paris])


def test_steering_every_step_of_a_generation(demo):
    layer = demo.num_layers // 2
    direction = torch.zeros(demo.hidden_size)
    direction[0] = 1.0
    prompt = "The capital of France is"
    outputs = {}
    for factor in (0.0, 50.0):
        with demo.generate(prompt, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
            for _ in tracer.iter[:3]:
                demo.steer(layer, direction, factor=factor, token_positions=-1)
            outputs[factor] = tracer.result.save()
    assert not torch.equal(outputs[0.0], outputs[50.0])
