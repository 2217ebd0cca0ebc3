"""Cross-family sweep: one body of code over every reference family.

The same lines read the contributions, check the identity, run the logit lens and ask
`support()` on each family; only the checkpoint changes.
"""

import pytest
import torch

from nnterp import StandardizedTransformer

FAMILIES = ["gpt2", "llama", "gpt_neox", "qwen2", "gemma2", "bloom", "opt"]


@pytest.mark.parametrize("name", FAMILIES)
def test_one_body_on_every_family(path, name):
    model = StandardizedTransformer(path(name), dispatch=True, attn_implementation="eager")
    support = model.support()
    has_mlp = support.get("mlp.mlp_output", "absent") is None
    with model.trace("The Eiffel Tower is in the city of"):
        x = model.layers[0].layer_input.save()
        attn = model.layers[0].self_attn.attention_output.save()
        if has_mlp:
            mlp = model.layers[0].mlp.mlp_output.save()
        out = model.layers[0].layer_output.save()
        last = model.layers[-1].layer_output.save()
        logits = model.logits.save()
    if has_mlp:
        torch.testing.assert_close(x + attn + mlp, out, atol=1e-5, rtol=1e-5)
    else:
        assert name == "opt" and "layer_mid" in support  # OPT: no mlp module, its feed-forward runs inline
    assert torch.allclose(model.project_on_vocab(last), logits, atol=1e-5)
    assert out.shape == (1, x.shape[1], model.hidden_size)
