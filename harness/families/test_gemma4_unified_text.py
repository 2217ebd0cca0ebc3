"""Gemma 4 unified (text), end to end: per-block head widths and a block sum scaled by `layer_scalar`."""

import torch

from nnterp import axis_size
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, moved, run

FAMILY = family("gemma4_unified_text")


class TestGemma4UnifiedText(FamilySuite):
    CHECKPOINT = "gemma4_unified_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    MLP_NORM = "pre_feedforward_layernorm"

    def test_contribution_identity(self, model):
        # Gemma 4's form of the identity: the block scales the whole sum.
        count = len(model.layers)

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                read.append((b.layer_input, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output))
            return read

        for index, (x, attn, mlp, out) in enumerate(run(model, body)):
            scalar = model.layers[index]._module.layer_scalar
            assert float(scalar) != 1.0, "the checkpoint leaves layer_scalar at one"
            assert torch.equal((x + attn + mlp) * scalar, out), f"block {index}: layer_scalar * (x + terms) is not layer_output"

    def test_boundary_writes_land(self, model, clean):
        def zero(m):
            b = m.layers[0]
            x = b.layer_input
            b.self_attn.attention_output[:] = 0
            return x, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output, m.logits

        x, attn, mlp, out, logits = run(model, zero)
        assert float(attn.detach().abs().max()) == 0.0 and moved(logits, clean["logits"])
        assert torch.equal((x + attn + mlp) * model.layers[0]._module.layer_scalar, out)

        def assign(m):
            m.layers[0].mlp.mlp_output = m.layers[0].mlp.mlp_output * 2
            return m.logits

        assert moved(run(model, assign), clean["logits"]), "an assigned mlp_output did not move the logits"

        def landed(m):
            out = m.layers[0].layer_output * 2
            m.layers[0].layer_output = out
            return out, m.layers[1].layer_input

        written, received = run(model, landed)
        assert torch.equal(written, received), "the next block did not receive the assigned layer_output"

    def test_head_widths_differ_per_block(self, model):
        sliding, full = (block.self_attn for block in model.layers)
        assert axis_size(sliding, "head_dim") == 16 and axis_size(full, "head_dim") == 32
        assert model.head_dim == 16
        keys = run(model, lambda m: m.layers[1].self_attn.attention_keys)
        assert keys.shape[-1] == 32 and keys.shape[1] == axis_size(full, "num_kv_heads")
