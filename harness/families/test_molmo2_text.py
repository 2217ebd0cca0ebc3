"""molmo2_text: its text family's suite on the `molmo2` wrapper checkpoint, beside the wrapper's `test_molmo2.py`.

No causal-LM class of the auto mapping builds `molmo2_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("molmo2")

import torch
from test_molmo2 import FAMILY, PROCESSOR

from nnterp_harness.suite import (
    PROMPT,
    FamilySuite,
    rows,
    run,
)


class TestMolmo2Text(FamilySuite):
    CHECKPOINT = "molmo2"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

    def test_input_accessors(self, model):
        # The processor writes the tokenizer's bos token ahead of every prompt that lacks it.
        def body(m):
            return m.input_ids, torch.tensor(m.input_size), m.attention_mask

        ids, size, mask = run(model, body)
        tokens = model.tokenizer(PROMPT, return_tensors="pt")["input_ids"]
        bos = torch.tensor([[model.tokenizer.bos_token_id]])
        assert torch.equal(ids.cpu(), torch.cat([bos, tokens], dim=1)), "input_ids are not bos and the prompt's tokens"
        assert tuple(size.tolist()) == tuple(ids.shape)
        assert tuple(mask.shape) == tuple(ids.shape)
        assert bool((mask == 1).all())
