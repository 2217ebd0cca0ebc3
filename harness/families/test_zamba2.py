"""Zamba2 (`Zamba2ForCausalLM`), end to end: a Mamba-2 block, then two hybrid blocks sharing one transformer block."""

import torch

from nnterp_harness.recurrent import CHUNKED_STATES, MIXER_ONLY, RecurrentChecks
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, child_names, moved, perturbed, rows, run

FAMILY = family("zamba2")


class TestZamba2(RecurrentChecks, FamilySuite):
    CHECKPOINT = "zamba2"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "final_layernorm", attn=None, ln1=None, ln2=None, mlp=None)
    EXPECTED_UNAVAILABLE = {**CHUNKED_STATES, **MIXER_ONLY}
    # Every block holds the mixer; the hybrid blocks run an attention before it.
    HYBRID = False
    MLP_NORM = None
    DECODE_MASK_COVERS_CACHE = False

    def contribution_sources(self, block):
        # The mixer's output is all a block adds: the shared transformer feeds the mixer's input.
        return [(child_names(block)["linear_attn"], "attention_output")]

    def sublayers_besides_mixers(self, model):
        # The attention reads the shared block's own norm of a wider input, not the block's normed stream,
        # and no block has an MLP: the block's norm feeds the mixer alone (held below and by RecurrentChecks).
        return False

    def test_sublayer_inputs_are_the_normed_stream(self, model):
        for index, block in enumerate(model.layers):
            hybrid = getattr(block, "self_attn", None) is not None

            def body(m, i=index, hybrid=hybrid):
                b = m.layers[i]
                got = {"embedded": m.embed_tokens.output, "input": b.input}
                if hybrid:
                    got["shared_norm"] = b.shared_transformer.input_layernorm.output
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
            wide = block.shared_transformer.input_layernorm._module(torch.cat([got["input"], got["embedded"]], -1))
            assert torch.equal(got["shared_norm"], wide), "the attention does not read the stream and the embeddings"
            assert torch.equal(got["normed"], norm(got["input"] + got["shared"])), (
                "the shared block's result is not in the mixer's input"
            )

    def test_hybrid_blocks_share_the_transformer(self, model):
        assert [getattr(block, "self_attn", None) is not None for block in model.layers] == [False, True, True]
        first, second = model.layers[1].shared_transformer, model.layers[2].shared_transformer
        assert first._module.self_attn.q_proj.weight is second._module.self_attn.q_proj.weight
        assert isinstance(model.layers[1].self_attn, FAMILY.Attention)
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
