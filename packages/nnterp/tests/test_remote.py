"""The remote key and the local dry run: a block with aliases and values survives serialization."""

import torch


def test_the_key_names_transformers_model_for_a_local_path(gpt2):
    key = gpt2.to_model_key()
    assert key.split(":", 1)[0] == "nnsight.modeling.transformers.TransformersModel"
    assert '"task": "text-generation"' in key


def test_a_local_dry_run_with_aliases_and_values(gpt2):
    prompt = "The Eiffel Tower is in the city of"
    with gpt2.trace(prompt):
        pattern_plain = gpt2.layers[1].self_attn.attention_probabilities[0, :, -1].save()
        probs_plain = gpt2.next_token_probs.save()
    with gpt2.trace(prompt, remote="local"):
        pattern = gpt2.layers[1].self_attn.attention_probabilities[0, :, -1].save()
        probs = gpt2.next_token_probs.save()
    assert torch.allclose(pattern, pattern_plain) and torch.allclose(probs, probs_plain)
    with gpt2.trace(prompt, remote="local"):
        gpt2.layers[1].mlp.mlp_output[:] = 0
        edited = gpt2.next_token_probs.save()
    assert not torch.allclose(edited, probs_plain)
