"""GPT-NeoX-Japanese, end to end: an own-arithmetic attention and a bias the last block adds with it."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, rows

FAMILY = family("gpt_neox_japanese")


class TestGPTNeoXJapanese(FamilySuite):
    CHECKPOINT = "gpt_neox_japanese"
    FAMILY = FAMILY
    NATIVE = rows("gpt_neox_japanese", "layers", "embed_in", "final_layer_norm", attn="attention", head="embed_out")
    MLP_WIDTH_KEY = None

    def test_the_last_blocks_contribution_carries_its_bias(self, model):
        last = model.layers[-1]
        bias = last.self_attn._module.dense_bias
        assert bias is not None and bool(bias.abs().max() > 0)
        assert model.layers[0].self_attn._module.dense_bias is None
        found = []
        with model.trace(PROMPT):
            found.append(last.self_attn.output[0].save())
            found.append(last.self_attn.attention_output.save())
        returned, contribution = found
        assert torch.equal(contribution, returned + bias)
