"""`ResendChecks`: the decode step of a family whose generation passes every id at every step.

XLM, XLNet and CPM-Ant prepare each generation step from the whole sequence, and
XLM and XLNet append one id of their own after it (XLM's mask token, XLNet's dummy
id 0), so the step's ids are the n prompt ids, the generated one and the appended
one, if any: n + 2 or n + 1 ids, even where the model keeps a cache (the suite's
default decode step then has one id). The family sets
`RESENDS_IDS`, so the attention mask installed for a step is as long as its ids.
A family's test class declares it in `CHECKS`; it replaces the suite's mask-under-generate test.
"""

from __future__ import annotations

from typing import Any

import torch

from .helpers import PROMPT


class ResendChecks:
    """Decode-step checks for a family whose every generation step passes the whole sequence and one appended id."""

    def appended_id(self, model: Any) -> int | None:
        """The id the family's generation appends after the sequence at every step, or `None`."""
        raise NotImplementedError

    def decode_step(self, model: Any, read: Any) -> tuple[Any, bool]:
        """What `read(model)` gives on the first decode step, and whether that call carried a `cache`."""
        box: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
            for _ in tracer.iter[1:2]:
                cached = "cache" in model.inputs[1]
                box.append((read(model), cached))
        assert len(box) == 1, "the decode step was not reached"
        return box[0]

    def test_attention_mask_under_generate(self, model, clean):
        appended = self.appended_id(model)
        length = self.n_tokens(clean) + 1 + (appended is not None)
        (ids, mask, logits), _ = self.decode_step(model, lambda m: (m.input_ids, m.attention_mask, m.logits))
        plain, _ = self.decode_step(model, lambda m: m.logits)
        assert tuple(ids.shape) == (1, length), f"decode ids: {tuple(ids.shape)}"
        if appended is not None:
            assert int(ids[0, -1]) == appended, "the step's last id is not the one generation appends"
        assert tuple(mask.shape) == (1, length) and bool((mask == 1).all()), f"decode mask: {tuple(mask.shape)}"
        assert torch.equal(logits, plain), "reading the attention mask changed the decode step"
