"""Checks shared by the families whose blocks run more than once in a forward (Dory's loop, HRM-Text's cycles).

A block's values are its first run; run `k` is nnsight's occurrence `k` of its locations.
The streams between such blocks enter weightless norms, which undo a scaled write, so the
writes here add noise instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .helpers import PROMPT, moved, perturbed, run

#: The values a write to a block's contributions and output goes through.
BOUNDARY_KEYS = ("self_attn.attention_output", "mlp.mlp_output", "layer_output")


def runs(model: Any, read: Callable[[Any], Any], count: int, prompt: Any = PROMPT) -> list[Any]:
    """`read(model)` at each of the first `count` occurrences of what it reads, in one trace."""
    box: list[Any] = []
    with model.trace(prompt) as tracer:
        for _ in tracer.iter[0:count]:
            box.append(read(model))
    return box


def assert_noise_writes_move_the_logits(model: Any, clean: dict, index: int) -> None:
    """Assigning noise to, or zeroing in place, each of block `index`'s `BOUNDARY_KEYS` moves the logits."""
    for key in BOUNDARY_KEYS:
        prefix, _, name = key.rpartition(".")

        def assign(m, prefix=prefix, name=name):
            host = getattr(m.layers[index], prefix) if prefix else m.layers[index]
            setattr(host, name, perturbed(getattr(host, name)))
            return m.logits

        def zero(m, prefix=prefix, name=name):
            host = getattr(m.layers[index], prefix) if prefix else m.layers[index]
            getattr(host, name)[:] = 0
            return m.logits

        assert moved(run(model, assign), clean["logits"]), f"assigning {key} did not move the logits"
        assert moved(run(model, zero), clean["logits"]), f"zeroing {key} in place did not move the logits"
