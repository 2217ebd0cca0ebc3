"""Checks of the Zamba line's hybrid blocks, where one transformer block is shared by several Mamba blocks.

Each hybrid block runs the shared transformer on its stream concatenated with the
embeddings, projects the result (`linear`) and adds it to the mixer's input, so the
shared attention's output feeds the mixer and never the stream itself.
"""

from __future__ import annotations

import torch

from .helpers import moved, perturbed, run


class SharedTransformerChecks:
    """Declared in `CHECKS` by the `FamilySuite` of a three-block Zamba checkpoint: a Mamba block, then two hybrid ones."""

    #: The native name of the shared transformer on a hybrid block.
    SHARED = "shared_transformer"

    def test_sublayer_inputs_are_the_normed_stream(self, model):
        for index, block in enumerate(model.layers):
            hybrid = getattr(block, "self_attn", None) is not None

            def body(m, i=index, hybrid=hybrid):
                b = m.layers[i]
                got = {"embedded": m.embed_tokens.output, "input": b.input}
                if hybrid:
                    got["shared_norm"] = getattr(b, self.SHARED).input_layernorm.output
                    got["attn_in"] = b.self_attn.input
                    got["shared"] = b.linear.output
                got["normed"] = b.input_layernorm.output
                got["mixer_in"] = b.linear_attn.input
                return got

            got = run(model, body)
            assert torch.equal(got["mixer_in"], got["normed"]), f"block {index}: the mixer does not read its norm"
            norm = block.input_layernorm._module
            if not hybrid:
                assert torch.equal(got["normed"], norm(got["input"]))
                continue
            assert torch.equal(got["attn_in"], got["shared_norm"]), f"block {index}: the attention reads no norm"
            shared_norm = getattr(block, self.SHARED).input_layernorm._module
            wide = shared_norm(torch.cat([got["input"], got["embedded"]], -1))
            assert torch.equal(got["shared_norm"], wide), "the attention does not read the stream and the embeddings"
            assert torch.equal(got["normed"], norm(got["input"] + got["shared"])), (
                "the shared block's result is not in the mixer's input"
            )

    def test_hybrid_blocks_share_the_transformer(self, model):
        assert [getattr(block, "self_attn", None) is not None for block in model.layers] == [False, True, True]
        first, second = getattr(model.layers[1], self.SHARED), getattr(model.layers[2], self.SHARED)
        assert first._module.self_attn.q_proj.weight is second._module.self_attn.q_proj.weight
        assert isinstance(model.layers[1].self_attn, self.FAMILY.Attention)
        assert model.support()["self_attn.attention_output"] == {0: "no self_attn module on this block"}

    def test_attention_output_feeds_the_mixer_not_the_stream(self, model, clean):
        def body(m):
            block = m.layers[2]
            x = block.layer_input
            block.self_attn.attention_output = perturbed(block.self_attn.attention_output)
            return x, block.linear_attn.attention_output, block.layer_output, m.logits

        x, mixer, out, logits = run(model, body)
        assert torch.equal(x + mixer, out)
        assert moved(logits, clean["logits"]), "an edit of the shared attention's output did not reach the mixer"
