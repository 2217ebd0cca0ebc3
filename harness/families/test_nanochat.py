"""NanoChat, end to end: one weightless norm called before the blocks and again before the head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, PROMPT, FamilySuite, run

FAMILY = family("nanochat")


class TestNanoChat(FamilySuite):
    CHECKPOINT = "nanochat"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_the_norm_runs_on_the_embeddings_first(self, model):
        def body(m):
            return m.token_embeddings, m.norm.input, m.norm.output, m.layers[0].layer_input

        embedded, first_in, first_out, block_in = run(model, body)
        assert torch.equal(first_in, embedded), "the norm's first call does not read the embeddings"
        assert torch.equal(first_out, block_in), "block 0 does not read the normed embeddings"
        assert not torch.equal(embedded, block_in)

    def test_final_norm_output_is_the_second_call(self, model):
        def body(m):
            last = m.layers[-1].layer_output
            return last, m.final_norm_output, m.lm_head.input

        last, final, head_in = run(model, body)
        assert torch.equal(final, head_in), "final_norm_output is not what the head reads"
        assert torch.equal(final, model.norm._module(last)), "final_norm_output is not the norm of the last block"

    def test_the_norms_second_call_is_the_second_occurrence(self, model):
        box = []
        with model.trace(PROMPT) as tracer:
            box.append(model.norm.output)
            with tracer.iter[1]:
                box.append(model.norm.output)
            box.append(model.final_norm_output)
        first, second, final = box
        assert torch.equal(second, final) and not torch.equal(first, final)

    def test_trace_through_standard_names(self, model):
        # The suite's version reads `norm.output` after the last block, which is the norm's
        # first call here and has run before block 0: read in forward order instead.
        def body(m):
            out = {"embed": m.embed_tokens.output, "norm": m.norm.output}
            block = m.layers[0]
            out["attn"] = block.self_attn.output[0]
            out["mlp"] = block.mlp.output
            out["last"] = m.layers[-1].output
            out["head"] = m.lm_head.output
            return out

        out = run(model, body)
        for name in ("embed", "norm", "attn", "mlp", "last"):
            assert out[name].shape[-1] == model.hidden_size, name
        assert out["head"].shape[-1] == model.vocab_size

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        last = len(model.layers) - 1

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, m.model.source.self_norm_1.input

        before, after, final = run(model, body)
        assert torch.equal(before, after), "the last block's output is not block 0's"
        assert torch.equal(before, final), "the final norm did not receive block 0's stream"

    def test_final_norm_output_writes_reach_the_logits(self, model, clean):
        def body(m):
            m.final_norm_output = m.final_norm_output * 0
            return m.logits

        logits = run(model, body)
        assert float(logits.detach().abs().max()) == 0.0, "a zeroed final_norm_output did not reach the head"
        assert not torch.equal(run(model, lambda m: m.logits, PROMPT), logits)
