"""Nemotron-H (`NemotronHForCausalLM`), end to end: a Mamba-2 block, an MLP block, a mixture block and an attention block."""

import pytest
import torch

from nnterp_harness.recurrent import CHUNKED_STATES
from nnterp_harness.release import family
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows, run

FAMILY = family("nemotron_h")


class TestNemotronH(FamilySuite):
    CHECKPOINT = "nemotron_h"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embeddings", "norm_f", attn=None, mlp=None, ln1=None, ln2=None)
    EXPECTED_UNAVAILABLE = {**CHUNKED_STATES, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    PLAIN_UP_PROJ = True

    def test_each_block_names_its_one_sublayer_by_kind(self, model):
        kinds = model.config.layers_block_type
        assert kinds == ["linear_attention", "mlp", "moe", "full_attention"]
        expected = [
            ("linear_attn", "input_layernorm", FAMILY.StateSpace),
            ("mlp", "post_attention_layernorm", FAMILY.Mlp),
            ("mlp", "post_attention_layernorm", FAMILY.Moe),
            ("self_attn", "input_layernorm", FAMILY.Attention),
        ]
        for index, (sublayer, norm, cls) in enumerate(expected):
            block = model.layers[index]
            assert getattr(block, sublayer) is block.mixer and type(block.mixer) is cls, index
            assert getattr(block, norm) is block.norm, index
            others = {"linear_attn", "self_attn", "mlp"} - {sublayer}
            for other in others:
                assert getattr(block, other, None) is None, (index, other)
        with pytest.raises(AttributeError, match="no self_attn module on this block"):
            model.layers[1].self_attn  # noqa: B018
        with pytest.raises(AttributeError, match="no linear_attn module on this block"):
            model.layers[2].linear_attn  # noqa: B018

    def test_support_names_the_sublayer_each_block_lacks(self, model):
        support = model.support()
        assert support["self_attn.attention_output"] == {i: "no self_attn module on this block" for i in (0, 1, 2)}
        assert support["mlp.mlp_output"] == {i: "no mlp module on this block" for i in (0, 3)}
        assert support["linear_attn.attention_output"] == {i: "no linear_attn module on this block" for i in (1, 2, 3)}

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[2].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

    def test_norms_follow_the_block_kind(self, model):
        support = model.support()
        assert support["attention_norm_output"] == {i: "no input_layernorm module on this block" for i in (1, 2)}
        for name in ("layer_mid", "mlp_norm_output"):
            assert support[name] == {i: "no post_attention_layernorm module on this block" for i in (0, 3)}

        def body(m):
            return m.layers[1].layer_input, m.layers[1].layer_mid, m.layers[1].mlp_norm_output, m.layers[1].mlp.input

        x, mid, normed, mlp_in = run(model, body)
        assert torch.equal(mid, x), "an MLP block's stream before its MLP is not the block input"
        assert torch.equal(normed, mlp_in)
