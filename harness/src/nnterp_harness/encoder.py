"""`EncoderChecks`: the contract of a bidirectional encoder, a family that declares `ENCODER = True`.

A masked LM predicts the token at each masked position from both sides, so the core
contract's causal and next-token assumptions give way here:

- every position attends to every other one (`CAUSAL = False`), and padding is masked:
  a right-padded row's pattern gives its pad keys no weight;
- there is no next token: `next_token_probs` is unavailable with its reason, and
  `generate` is refused before anything runs (the core's generate tests are replaced);
- the masked positions take its place: `mask_token_mask` marks the tokenizer's mask
  token, `mask_token_probs` is the softmax of the logits there, one row per mask token
  of the batch, row by row;
- the checkpoint loads bare as well (`task="feature-extraction"`), with the same names
  and the same block values, and no value over the vocabulary.

The raw model the suite compares with is the same checkpoint as nnsight loads it for
`fill-mask`, with the pipeline's one-mask check lifted as nnterp lifts it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nnsight
import pytest
import torch

from nnterp import StandardizedTransformer, Unavailable
from nnterp.encoders import NO_HEAD, NO_NEXT_TOKEN, accept_prompts_without_mask

from .helpers import NNTERP_ONLY_KWARGS, PROMPT, run

#: A prompt with one mask token, and a batch of two with one each, the second shorter (right-padded).
MASKED = "The Eiffel Tower is in [MASK]"
MASKED_BATCH = ["The Eiffel Tower is in [MASK]", "Paris is [MASK]"]


class EncoderChecks:
    """Checks for a bidirectional encoder under its masked-LM head; the class it is mixed into is a `FamilySuite`."""

    CAUSAL = False
    KIND_UNAVAILABLE = {"next_token_probs": "a bidirectional encoder"}

    @pytest.fixture(scope="class")
    @classmethod
    def raw_model(cls, checkpoint: Path) -> Any:
        from transformers import AutoTokenizer

        kwargs = {"dispatch": True, "attn_implementation": "eager", "task": "fill-mask", **cls.LOAD_KWARGS}
        for own in NNTERP_ONLY_KWARGS:
            kwargs.pop(own, None)
        kwargs.setdefault("tokenizer", AutoTokenizer.from_pretrained(str(checkpoint)))
        raw = nnsight.TransformersModel(str(checkpoint), **kwargs)
        accept_prompts_without_mask(raw.pipeline)
        return raw

    # -- no next token ----------------------------------------------------------------

    def test_loads_under_the_masked_lm_head(self, model):
        assert model.task == "fill-mask"
        assert type(model._module).__name__.endswith(("ForMaskedLM", "WithLMHeadModel")), type(model._module)
        assert model.tokenizer.padding_side == "right", "an encoder's batch pads on the right"

    def test_next_token_probs(self, model, clean):
        assert model.support()["next_token_probs"] == NO_NEXT_TOKEN
        with pytest.raises(Unavailable, match="mask_token_probs"):
            with model.trace(PROMPT):
                model.next_token_probs.save()

    def test_attention_interior_under_generate(self, model, clean):
        with pytest.raises(TypeError, match="bidirectional encoder"):
            with model.generate(PROMPT, max_new_tokens=2):
                pass

    def test_attention_mask_under_generate(self, model, clean):
        # In generate's place: the mask of a right-padded batch, and the pattern giving its pad keys no weight.
        self.require(model, "self_attn.attention_probabilities")
        index, _ = self.first_attention(model)

        def body(m):
            return m.attention_mask, m.layers[index].self_attn.attention_probabilities

        mask, pattern = run(model, body, MASKED_BATCH)
        real = int(mask[1].sum())
        assert real < mask.shape[1] and bool((mask[1, :real] == 1).all()) and bool((mask[1, real:] == 0).all()), (
            f"the shorter prompt is not right-padded: {mask[1].tolist()}"
        )
        assert float(pattern[1, :, :real, real:].abs().max()) == 0.0, "a real query weighs a pad key"
        sums = pattern[1, :, :real].float().sum(-1)
        assert torch.allclose(sums, torch.ones_like(sums), atol=1e-3)

    # -- the masked positions ----------------------------------------------------------

    def test_mask_token_values(self, model):
        mask_id = model.tokenizer.mask_token_id

        def body(m):
            return m.input_ids, m.mask_token_mask, m.mask_token_probs, m.logits

        ids, where, probs, logits = run(model, body, MASKED_BATCH)
        assert where.dtype == torch.bool and torch.equal(where, ids == mask_id)
        assert int(where.sum(-1).min()) == 1 and int(where.sum()) == 2, "each prompt holds one mask token"
        assert tuple(probs.shape) == (2, model.vocab_size), "one distribution per mask token of the batch"
        assert torch.allclose(probs, logits[where].softmax(-1))
        assert torch.allclose(probs.float().sum(-1), torch.ones(2), atol=1e-3)
        with pytest.raises(AttributeError, match="mask_token_mask"):
            with model.trace(MASKED):
                model.mask_token_mask = torch.zeros(1, 8, dtype=torch.bool)

    def test_mask_token_probs_follow_an_edit(self, model):
        # The distribution at the mask moves with an edit of the stream at the mask position only.
        def clean(m):
            return m.mask_token_mask, m.mask_token_probs

        where, before = run(model, clean, MASKED)
        position = int(where[0].nonzero()[0, 0])

        def edited(m):
            m.layers[-1].layer_output[:, position] = 0
            return m.mask_token_probs

        after = run(model, edited, MASKED)
        assert not torch.allclose(before, after), "editing the stream at the mask did not move its distribution"

    def test_a_prompt_without_a_mask_traces(self, model):
        where, logits = run(model, lambda m: (m.mask_token_mask, m.logits), PROMPT)
        assert not bool(where.any()) and logits.shape[1] == where.shape[1]

    # -- the bare encoder -------------------------------------------------------------

    def test_bare_encoder_serves_the_same_blocks(self, model, checkpoint):
        bare = StandardizedTransformer(
            str(checkpoint), task="feature-extraction", dispatch=True, attn_implementation="eager", **self.LOAD_KWARGS
        )
        assert bare.task == "feature-extraction" and len(bare.layers) == len(model.layers)
        support = bare.support()
        assert support["logits"] == NO_HEAD and support["mask_token_probs"] == NO_HEAD
        assert support["next_token_probs"] == NO_HEAD
        last = len(model.layers) - 1

        def body(m):
            return m.layers[0].layer_input, m.layers[last].layer_output

        for ours, theirs in zip(run(bare, body), run(model, body)):
            assert torch.equal(ours, theirs), "the bare encoder's blocks differ from the masked LM's"
        with pytest.raises(Unavailable, match="feature-extraction"):
            with bare.trace(PROMPT):
                bare.logits.save()
