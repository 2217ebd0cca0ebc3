"""BitNet, end to end: sub-norms before both output projections."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("bitnet")


class TestBitnet(FamilySuite):
    CHECKPOINT = "bitnet"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # `attn_sub_norm` sits between the heads and `o_proj`; `ffn_sub_norm` between the gated product and `down_proj`.
    PREMIX_IS_HEAD_OUTPUTS = False
    NEURONS_FROM_ACTIVATION = False

    def test_sub_norms_feed_the_output_projections(self, model):
        def body(m):
            block = m.layers[0]
            heads = block.self_attn.attention_head_outputs
            premix = block.self_attn.attention_premix
            activation = block.mlp.mlp_activation
            up = block.mlp.up_proj.output
            neurons = block.mlp.mlp_neurons
            return heads, premix, activation, up, neurons

        heads, premix, activation, up, neurons = run(model, body)
        sub = model.layers[0]
        assert torch.equal(premix.flatten(-2), sub.self_attn.attn_sub_norm._module(heads.flatten(-2)))
        assert torch.equal(neurons, sub.mlp.ffn_sub_norm._module(activation * up))
