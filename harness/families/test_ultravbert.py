"""UltraVBERT (`ultravbert`), end to end: the UltraBERT text model inside a vision wrapper, served as an encoder."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import LONG_PROMPT
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("ultravbert")


class TestUltraVBert(FamilySuite):
    CHECKPOINT = "ultravbert"
    FAMILY = FAMILY
    NATIVE = rows("model.text_model", "layers", "embed_tokens", "norm")
    # Stated, not inherited: `FamilySuite`'s own merged table holds a decoder's unavailable mask values.
    EXPECTED_UNAVAILABLE = {}

    def test_the_head_transforms_before_it_projects(self, model):
        def body(m):
            return m.final_norm_output, m.projection_head.output, m.lm_head_output, m.logits

        final, transformed, projected, logits = run(model, body)
        assert transformed.shape[-1] == model.hidden_size, "projection_head is not the stream-wide prediction head"
        assert torch.equal(projected, model.lm_head._module(transformed)), "lm_head_output is not lm_head(head(...))"
        assert torch.equal(projected, logits)
        assert not torch.equal(final, transformed)

    def test_a_text_prompt_runs_no_tower(self, model):
        calls = []
        hook = model._module.model.vision_model.register_forward_hook(lambda *args: calls.append(1))
        try:
            tokens, entering = run(model, lambda m: (m.token_embeddings, m.layers[0].layer_input))
        finally:
            hook.remove()
        assert not calls, "the vision tower ran on a text prompt"
        assert torch.equal(entering, tokens), "block 0 does not read the token embeddings as they are"

    def test_the_pre_norm_identity_is_exact(self, model):
        count = len(model.layers)

        def body(m):
            return [
                (b.layer_input, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output)
                for b in (m.layers[i] for i in range(count))
            ]

        for index, (x, attention, mlp, out) in enumerate(run(model, body, ["The Eiffel Tower is in", "Paris"])):
            assert torch.equal(x + attention + mlp, out), f"block {index}: the sum is not layer_output bit for bit"

    def test_a_banded_block_weighs_the_keys_its_window_states(self, model):
        config = model.config.get_text_config()
        kinds = config.layer_types
        blocks = list(range(len(model.layers)))
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", blocks, LONG_PROMPT)
        assert set(kinds) == {"full_attention", "sliding_attention"}
        for index, pattern in zip(blocks, patterns):
            window = model.layers[index].self_attn.attention_window
            n = pattern.shape[-1]
            pattern = pattern.detach()
            if kinds[index] == "sliding_attention":
                assert window == 2 * config.sliding_window + 1 < n, f"block {index}: attention_window {window}"
                band = (torch.arange(n)[:, None] - torch.arange(n)[None, :]).abs() <= config.sliding_window
                assert int(band.sum(-1).max()) == window
                assert float(pattern[..., ~band].abs().max()) == 0.0, f"block {index} weighs a key past its band"
                assert float(pattern[..., band].min()) > 0.0, f"block {index} leaves a key of its band unweighed"
            else:
                assert window is None, f"full-attention block {index} states a window of {window}"
                assert float(pattern.min()) > 0.0, f"full-attention block {index} leaves a key unweighed"
