"""Gemma 3n (text), end to end: AltUp's parallel streams around a sandwich block with laurel, per-block MLP widths."""

import torch

from nnterp import axis_size
from nnterp.components import Residual, Streams
from nnterp_harness.altup import AltUpChecks
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("gemma3n_text")


class TestGemma3nText(FamilySuite):
    CHECKS = (AltUpChecks,)
    CHECKPOINT = "gemma3n_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    MLP_NORM = "pre_feedforward_layernorm"
    # layer_mid is (x + attention_output + laurel_output) / sqrt(2) on the active stream (AltUpChecks).
    MID_IDENTITY = False
    # Block 2 reuses block 0's keys and values; block 1 stores its own for no later block.
    SKIPPED_BLOCK = 1

    def test_the_streams_are_the_layout_and_the_rest_the_active_stream(self, model):
        layer = type(model.layers[0])
        for name in ("layer_input", "layer_output", "altup_predictions"):
            assert getattr(layer, name).layout is Streams, name
        for name in ("active_prediction", "laurel_output", "layer_mid", "active_output", "per_layer_output"):
            assert getattr(layer, name).layout is Residual, name

    def test_blocks_differ_in_width_and_in_key_sharing(self, model):
        widths = [block.mlp.intermediate_size for block in model.layers]
        assert widths == list(model.config.intermediate_size) == model.intermediate_size
        assert len(set(widths)) == len(widths), "the checkpoint gives two blocks one MLP width"
        shared = [block.self_attn._module.is_kv_shared_layer for block in model.layers]
        assert shared == [False, False, True]
        keys = run(model, lambda m: (m.layers[0].self_attn.attention_keys, m.layers[2].self_attn.attention_keys))
        assert torch.equal(keys[0], keys[1]), "the sharing block does not reuse the sliding block's keys"
        assert keys[1].shape[1] == axis_size(model.layers[2].self_attn, "num_kv_heads")

    def test_only_the_sparse_block_cuts_its_gate(self, model):
        sparse, dense = run(model, lambda m: (m.layers[0].mlp.mlp_activation, m.layers[1].mlp.mlp_activation))
        assert float((sparse == 0).float().mean()) > 0.5, "the 0.95-sparse block kept most of its gate"
        assert float((dense == 0).float().mean()) < 0.05

    def test_project_on_vocab_takes_one_stream_as_it_stands(self, model):
        def body(m):
            return m.layers[-1].active_output, m.layers[-1].layer_output

        active, streams = run(model, body)
        cap = model.config.final_logit_softcapping
        head = model.lm_head(model.norm(active))
        assert torch.equal(model.project_on_vocab(active), cap * torch.tanh(head / cap))
        assert not torch.equal(model.project_on_vocab(active), model.project_on_vocab(streams))
