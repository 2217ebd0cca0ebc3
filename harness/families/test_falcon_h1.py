"""Falcon-H1 (`FalconH1ForCausalLM`), end to end: two blocks of a Mamba-2 mixer beside an attention, every multiplier set."""

import torch

from nnterp_harness.recurrent import CHUNKED_STATES
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, child_names, rows, run

FAMILY = family("falcon_h1")


class TestFalconH1(FamilySuite):
    CHECKPOINT = "falcon_h1"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "final_layernorm", ln2="pre_ff_layernorm", mlp="feed_forward")
    EXPECTED_UNAVAILABLE = CHUNKED_STATES
    # Every block holds the mixer, beside its attention.
    HYBRID = False
    # `layer_mid` adds both mixers: `test_layer_mid_sums_both_mixers` holds it to that.
    MID_IDENTITY = False

    def contribution_sources(self, block):
        # Three terms: the mixer and the attention both read the normed stream, then the MLP.
        children = child_names(block)
        return [
            (children["linear_attn"], "attention_output"),
            (children["self_attn"], "attention_output"),
            (children["mlp"], "mlp_output"),
        ]

    def attention_feed(self, model, normed):
        return normed * model.config.attention_in_multiplier

    def test_both_mixers_on_every_block(self, model):
        for block in model.layers:
            assert isinstance(block.linear_attn, FAMILY.StateSpace)
            assert isinstance(block.self_attn, FAMILY.Attention)
        support = model.support()
        assert support["self_attn.attention_output"] is None and support["linear_attn.attention_output"] is None

    def test_each_contribution_is_scaled_by_its_own_multiplier(self, model):
        config = model.config
        assert config.ssm_out_multiplier != config.attention_out_multiplier

        def body(m):
            block = m.layers[0]
            return (
                block.linear_attn.output,
                block.linear_attn.attention_output,
                block.self_attn.output[0],
                block.self_attn.attention_output,
            )

        mixer_raw, mixer, attn_raw, attn = run(model, body)
        assert torch.equal(mixer, mixer_raw * config.ssm_out_multiplier)
        assert torch.equal(attn, attn_raw * config.attention_out_multiplier)

    def test_layer_mid_sums_both_mixers(self, model):
        def body(m):
            block = m.layers[1]
            return (
                block.layer_input,
                block.linear_attn.attention_output,
                block.self_attn.attention_output,
                block.layer_mid,
            )

        x, mixer, attn, mid = run(model, body)
        assert torch.equal(mid, x + (mixer + attn)), "the block adds the two mixers' sum to the stream"
