"""OLMo-Hybrid (`OlmoHybridForCausalLM`), end to end: a post-norm attention block between two DeltaNet blocks.

The checkpoint puts the attention block in the middle, so the boundary tests, which
read the first and the last block, hold the DeltaNet blocks' norms to the suite's
pre-norm statements; the attention block's post-norm boundaries are checked here.
"""

import torch

from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run, ulp_close

FAMILY = family("olmo_hybrid")


class TestOlmoHybrid(FamilySuite):
    CHECKPOINT = "olmo_hybrid"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None, ln1=None, ln2=None)
    EXPECTED_UNAVAILABLE = ROUTING_NEEDED

    def attention_block(self, model):
        found = [i for i, block in enumerate(model.layers) if getattr(block, "self_attn", None) is not None]
        assert found, "the checkpoint keeps no attention block"
        return found[0]

    def test_sublayer_inputs_are_the_normed_stream(self, model):
        for index, block in enumerate(model.layers):
            if getattr(block, "self_attn", None) is None:

                def body(m, i=index):
                    b = m.layers[i]
                    return b.input_layernorm.output, b.linear_attn.input, b.post_attention_layernorm.output, b.mlp.input

                norm_in, mixer_in, norm_mid, mlp_in = run(model, body)
                assert torch.equal(mixer_in, norm_in), f"block {index}: the mixer does not read input_layernorm"
                assert torch.equal(mlp_in, norm_mid), f"block {index}: the MLP does not read post_attention_layernorm"
                continue

            def body(m, i=index):
                b = m.layers[i]
                return b.input, b.self_attn.input, b.layer_mid, b.mlp.input

            x, attn_in, mid, mlp_in = run(model, body)
            assert torch.equal(attn_in, x), f"block {index}: the attention does not read the block input"
            assert torch.equal(mlp_in, mid), f"block {index}: the MLP does not read layer_mid"

    def test_post_norm_block_boundaries(self, model, clean):
        index = self.attention_block(model)

        def body(m):
            b = m.layers[index]
            return (
                b.layer_input,
                b.self_attn.attention_output,
                b.post_attention_layernorm.output,
                b.layer_mid,
                b.mlp.mlp_output,
                b.post_feedforward_layernorm.output,
                b.layer_output,
            )

        x, attn_out, attn_norm, mid, mlp_out, mlp_norm, out = run(model, body)
        assert torch.equal(attn_out, attn_norm), "attention_output is not post_attention_layernorm's output"
        assert torch.equal(mlp_out, mlp_norm), "mlp_output is not post_feedforward_layernorm's output"
        assert ulp_close(mid, x + attn_out), "layer_mid is not layer_input + attention_output"
        assert torch.equal(out, mid + mlp_out), "layer_output is not layer_mid + mlp_output"
        support = model.support(layer=index)
        assert "input_layernorm" in support["attention_norm_output"]
        assert "pre_feedforward_layernorm" in support["mlp_norm_output"]
        self._write_moves_logits(model, clean, "layer_mid", index)
