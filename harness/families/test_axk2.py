"""A.X K2, end to end: DeepSeek-V3.2's indexed latent attention with gated heads, gated norms, and its mixture."""

import inspect

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("axk2")

# Where the cache holds the compressed latent, the values are decompressed after it as a view out of
# one split, which torch refuses to edit in place; where it holds the decompressed keys and values,
# the attention is served the cache's own concatenation.
CACHES_LATENT = "update(k_pass" in inspect.getsource(FAMILY.AXK2Attention.forward)


class TestAXK2(FamilySuite):
    CHECKPOINT = "axk2"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    REFUSES_IN_PLACE = ("attention_values",) if CACHES_LATENT else ()
    PREMIX_IS_HEAD_OUTPUTS = False

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

    def test_each_query_attends_to_the_indexer_keys_only(self, model, clean):
        probabilities = run(model, lambda m: m.layers[0].self_attn.attention_probabilities)
        kept = (probabilities > 0).sum(-1)
        n = self.n_tokens(clean)
        assert n > model.config.index_topk
        expected = torch.arange(1, n + 1).clamp(max=model.config.index_topk)
        assert torch.equal(kept[0, 0], expected)

    def test_premix_is_the_gated_heads(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.q_gate_proj.output, attn.attention_head_outputs, attn.attention_premix

        fused, heads, premix = run(model, body)
        attn = model.layers[0].self_attn._module
        batch, seq = heads.shape[:2]
        gate = fused.view(batch, seq, attn.num_heads, -1)[..., attn.qk_head_dim :]
        expected = heads * torch.sigmoid(gate.float())
        assert torch.allclose(premix, expected, atol=1e-6)
        assert not torch.allclose(premix, heads, atol=1e-3)

    def test_sublayers_read_the_gated_norms(self, model):
        def body(m):
            block = m.layers[1]
            return block.input_layernorm.norm.output, block.attention_norm_output

        normed, gated = run(model, body)
        gate = model.layers[1].input_layernorm._module.mlp
        assert torch.allclose(gated, normed * torch.sigmoid(gate(normed)), atol=1e-6)
        assert not torch.allclose(gated, normed, atol=1e-3)

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)
