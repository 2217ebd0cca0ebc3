"""The recipes of the tutorials, each a test on the trained demo checkpoint."""

import pytest


@pytest.fixture(scope="package")
def demo(path):
    from nnterp import StandardizedTransformer

    return StandardizedTransformer(path("demo"), dispatch=True, attn_implementation="eager")


@pytest.fixture(scope="package")
def token(demo):
    """`token(" Paris")`: the id of a word that is one token after a space."""

    def lookup(text: str) -> int:
        ids = demo.tokenizer(text, add_special_tokens=False).input_ids
        assert len(ids) == 1, f"{text!r} is {len(ids)} tokens"
        return ids[0]

    return lookup


@pytest.fixture(scope="package")
def corrupt(demo):
    """A landmark prompt as long as the clean one, in tokens, whose answer is not Paris."""
    from nnterp_harness.facts import LANDMARKS

    clean = "The Eiffel Tower is in the city of"
    length = len(demo.tokenizer(clean).input_ids)
    for landmark in LANDMARKS:
        prompt = f"{landmark.subject} is in the city of"
        if landmark.city != "Paris" and len(demo.tokenizer(prompt).input_ids) == length:
            return prompt
    pytest.fail("no landmark prompt has as many tokens as the clean one")
