"""`chunk_per_token` and `block_per_token`: the size they set holds on a lazy load, where the first trace loads the modules."""

import pytest

import nnterp
from nnterp import StandardizedTransformer, block_per_token, chunk_per_token

PROMPT = "The Eiffel Tower is in"


@pytest.mark.parametrize(
    ("name", "per_token", "size"),
    [("mamba2", chunk_per_token, "chunk_size"), ("minimax", block_per_token, "block_size")],
)
def test_a_lazy_load_keeps_the_per_token_size(path, name, per_token, size):
    model = StandardizedTransformer(path(name))
    assert not model.dispatched
    nnterp.route_kernels(model.family, "torch")
    try:
        per_token(model)
        mixer = next(block.linear_attn for block in model.layers if hasattr(block, "linear_attn"))
        assert getattr(mixer._module, size) == 1
        tokens = len(model.tokenizer(PROMPT)["input_ids"])
        with model.trace(PROMPT):
            states = mixer.states.save()
        assert states.shape[:2] == (1, tokens)
        per_token(model, enabled=False)
        assert getattr(mixer._module, size) > 1
    finally:
        nnterp.route_kernels(model.family, "default")
