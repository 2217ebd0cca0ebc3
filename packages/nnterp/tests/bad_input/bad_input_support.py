"""What the bad-input tests share: the prompt they run and the check that a model still runs."""

import torch

PROMPT = "The Eiffel Tower is in"


def still_runs(model) -> None:
    """A trace after the failure runs and gives finite logits."""
    with model.trace(PROMPT):
        logits = model.logits.save()
    assert torch.isfinite(logits).all()
