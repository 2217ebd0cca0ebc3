"""ModernBERT (`modernbert`), end to end: a bidirectional pre-norm encoder with global and windowed blocks."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import LONG_PROMPT
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("modernbert")


class TestModernBert(FamilySuite):
    CHECKPOINT = "modernbert"
    FAMILY = FAMILY
    NATIVE = rows(
        "model",
        "layers",
        "embeddings.tok_embeddings",
        "final_norm",
        attn="attn",
        ln1="attn_norm",
        ln2="mlp_norm",
        head="head",
    )
    # Stated, not inherited: `FamilySuite`'s own merged table holds a decoder's unavailable mask values.
    EXPECTED_UNAVAILABLE = {}
    VOCAB_PROJECTION = "decoder"
    NEURONS_FROM_ACTIVATION = False
    # The values are one of `unbind`'s views of the fused projection, which torch refuses to edit in place.
    REFUSES_IN_PLACE = ("attention_values",)

    def test_the_head_transforms_before_it_projects(self, model):
        def body(m):
            return m.final_norm_output, m.lm_head.output, m.lm_head_output, m.logits

        final, transformed, projected, logits = run(model, body)
        assert transformed.shape[-1] == model.hidden_size, "lm_head is not the stream-wide prediction head"
        assert torch.equal(projected, model.decoder._module(transformed)), "lm_head_output is not decoder(lm_head(...))"
        assert torch.equal(projected, logits)
        assert not torch.equal(final, transformed)

    def test_block_0_has_no_attention_norm(self, model):
        x, normed = run(model, lambda m: (m.layers[0].layer_input, m.layers[0].attention_norm_output))
        assert torch.equal(x, normed), "block 0's attention norm is not an identity"
        assert isinstance(model.layers[0].input_layernorm._module, torch.nn.Identity)

    def test_windowed_blocks_attend_both_ways_within_the_window(self, model):
        config = model.config
        count = len(model.layers)
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", list(range(count)), LONG_PROMPT)
        assert "sliding_attention" in config.layer_types and "full_attention" in config.layer_types
        for index, pattern in enumerate(patterns):
            window = model.layers[index].self_attn.attention_window
            n = pattern.shape[-1]
            assert n > 2 * config.sliding_window + 1, "the long prompt does not outrun the window"
            distance = (torch.arange(n)[:, None] - torch.arange(n)[None, :]).abs()
            near = distance <= config.sliding_window
            if config.layer_types[index] == "sliding_attention":
                assert window == 2 * config.sliding_window + 1, f"block {index}: attention_window {window}"
                assert float(pattern[..., ~near].abs().max()) == 0.0, f"block {index} attends past its window"
                assert float(pattern[..., near].abs().min()) > 0.0, f"block {index} sees less than its window"
                assert int(near[n // 2].sum()) == window, "attention_window does not count the keys a query sees"
            else:
                assert window is None, f"global block {index}: attention_window {window}"
                assert float(pattern.abs().min()) > 0.0, f"global block {index} is windowed or causal"

    def test_a_padded_row_keeps_its_values(self, model):
        # The eager attention runs on the padded batch: a shorter prompt's real positions read as they do alone.
        prompts = [LONG_PROMPT, "Paris is [MASK]"]

        def body(m):
            return m.attention_mask, m.layers[-1].layer_output, m.logits

        mask, padded, logits = run(model, body, prompts)
        alone, alone_logits = run(model, lambda m: (m.layers[-1].layer_output, m.logits), prompts[1])
        real = int(mask[1].sum())
        assert real < mask.shape[1] and padded.shape[:2] == mask.shape, "the batch is not padded"
        assert alone.shape[1] == real
        assert torch.allclose(padded[1, :real], alone[0], atol=1e-5)
        assert torch.allclose(logits[1, :real], alone_logits[0], atol=1e-4)

    def test_the_pre_norm_identity_is_exact(self, model):
        # The block adds in this order, so the sum is bit for bit the block's output, padded batch included.
        count = len(model.layers)

        def body(m):
            return [
                (b.layer_input, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output)
                for b in (m.layers[i] for i in range(count))
            ]

        for index, (x, attention, mlp, out) in enumerate(run(model, body, ["The Eiffel Tower is in", "Paris"])):
            assert torch.equal(x + attention + mlp, out), f"block {index}: the sum is not layer_output bit for bit"
