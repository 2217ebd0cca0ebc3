"""MiMo-V2-Flash (`MiMoV2FlashForCausalLM`), end to end: values narrower than the queries, sliding-window blocks
with attention sinks, a dense block and a grouped sigmoid mixture."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("mimo_v2_flash")


class TestMimoV2Flash(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "mimo_v2_flash"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, "mlp.shared_expert_output": "no shared"}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    # The sliding-window block carries sinks; the full-attention block 0, where the suite compares the pattern
    # with its scores, has none, and its rows sum to one.
    ATTENTION_SINK = True

    def test_sinks_sit_on_the_sliding_blocks_only(self, model):
        kinds = model.config.layer_types
        assert [block.self_attn.SINK for block in model.layers] == [kind == "sliding_attention" for kind in kinds]
        assert [block.self_attn.num_kv_heads for block in model.layers] == [1, 2]

    def test_values_are_narrower_than_queries_and_scaled(self, model):
        attn = model.layers[1].self_attn
        assert (attn.head_dim, attn.qk_head_dim) == (16, 24) == (model.head_dim, model.qk_head_dim)

        def body(m):
            a = m.layers[1].self_attn
            return a.v_proj.output, a.attention_values

        projected, values = run(model, body)
        expected = projected.unflatten(-1, (-1, 16)).transpose(1, 2) * model.config.attention_value_scale
        assert torch.equal(values, expected)

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        picked = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = picked / picked.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)
