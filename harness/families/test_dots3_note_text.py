"""dots3 note's language model, end to end: gated latent attention, indexed then sliding, and a grouped sigmoid mixture."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("dots3_note_text")


class TestDots3NoteText(FamilySuite):
    CHECKPOINT = "dots3_note_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    PREMIX_IS_HEAD_OUTPUTS = False
    # The values are decompressed from the cached latent as a view out of one split, which torch refuses
    # to edit in place.
    REFUSES_IN_PLACE = ("attention_values",)

    def test_block_kinds(self, model):
        config = model.config
        assert config.layer_types == ["indexed_attention", "indexed_attention", "sliding_attention"]
        assert [isinstance(block.mlp, FAMILY.Moe) for block in model.layers] == [False, True, True]
        assert model.layers[2].self_attn.num_heads != model.layers[0].self_attn.num_heads

    def test_the_gate_scales_each_head_before_the_output_projection(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.attention_head_outputs, attn.g_proj.output, attn.attention_premix

        heads, gate, premix = run(model, body)
        assert torch.allclose(premix, heads * torch.sigmoid(gate).unsqueeze(-1), atol=1e-6)

    def test_indexed_queries_attend_to_the_indexer_keys_only(self, model, clean):
        probabilities = run(model, lambda m: m.layers[0].self_attn.attention_probabilities)
        n = self.n_tokens(clean)
        expected = torch.arange(1, n + 1).clamp(max=model.config.index_topk)
        assert torch.equal((probabilities > 0).sum(-1)[0, 0], expected)

    def test_sliding_queries_attend_to_the_window_only(self, model, clean):
        probabilities = run(model, lambda m: m.layers[2].self_attn.attention_probabilities)
        n = self.n_tokens(clean)
        expected = torch.arange(1, n + 1).clamp(max=model.config.sliding_window)
        assert torch.equal((probabilities > 0).sum(-1)[0, 0], expected)
