"""DeepSeek-V2, end to end: latent attention, a dense first block, then a group-limited softmax mixture with shared experts."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("deepseek_v2")


class TestDeepseekV2(FamilySuite):
    CHECKPOINT = "deepseek_v2"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    REFUSES_IN_PLACE = ("attention_values",)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}
        assert model.support(layer=1)["mlp.router_logits"] is None

    def test_weights_are_the_scaled_softmax_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.softmax(logits.float(), dim=-1).gather(-1, indices)
        assert torch.allclose(weights, scores * model.config.routed_scaling_factor, atol=1e-6)

    def test_choice_stays_within_the_best_groups(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_indices

        logits, indices = run(model, body)
        config = model.config
        groups = logits.softmax(-1).unflatten(-1, (config.n_group, -1)).amax(-1)
        best = groups.topk(config.topk_group, dim=-1).indices
        chosen_groups = indices // (config.n_routed_experts // config.n_group)
        assert bool((chosen_groups.unsqueeze(-1) == best.unsqueeze(-2)).any(-1).all())

    def test_latent_attention_sizes(self, model):
        attn = model.layers[0].self_attn
        config = model.config
        assert attn.qk_head_dim == config.qk_nope_head_dim + config.qk_rope_head_dim
        assert attn.head_dim == config.v_head_dim
        assert attn.num_kv_heads == attn.num_heads == config.num_attention_heads
