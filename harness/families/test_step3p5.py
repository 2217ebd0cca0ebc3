"""step3p5: its text family's suite on the `step3p7` wrapper checkpoint, beside the wrapper's `test_step3p7.py`.

No causal-LM class of the auto mapping builds `step3p5` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("step3p7")

import torch
from test_step3p7 import FAMILY, PROCESSOR

from nnterp.components import Mlp
from nnterp.families.step3p5 import Moe
from nnterp_harness.sliding import LONG_PROMPT
from nnterp_harness.suite import (
    ROUTED_EXPERTS,
    FamilySuite,
    rows,
    run,
)


class TestStep3p7Text(FamilySuite):
    CHECKPOINT = "step3p7"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, "mlp.expert_outputs": "their own loop"}
    MOE_UNAVAILABLE = {"expert_outputs": "their own loop"}
    PREMIX_IS_HEAD_OUTPUTS = False
    SCALE_KEY = "moe_router_scaling_factor"
    ROUTER_EXTRA_CLASSES = (Mlp,)

    def available(self, model, key):
        # The dense block's MLP has no mixture value and says so, as `test_support_is_what_this_family_expects`
        # lets it; the expected reason holds on the mixture block.
        expected = self.EXPECTED_UNAVAILABLE.get(key)
        if expected is None:
            return True
        entry = model.support().get(key)
        assert entry is not None, f"{key} is in EXPECTED_UNAVAILABLE, but support() reports it available"
        for index, reason in entry.items() if isinstance(entry, dict) else [(None, entry)]:
            if index is not None and key.startswith("mlp.") and not isinstance(model.layers[index].mlp, Moe):
                assert "has no" in reason, f"{key} on dense block {index}: {reason!r}"
                continue
            assert expected in reason, f"{key}: expected a reason containing {expected!r}, got {reason!r}"
        return False

    def test_sliding_blocks_attend_within_the_window(self, model):
        # `SlidingWindowChecks` reads the root config; the wrapper holds the window on its text config.
        config = model.config.get_text_config()
        count = len(model.layers)
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", list(range(count)), LONG_PROMPT)
        for index, pattern in enumerate(patterns):
            n = pattern.shape[-1]
            assert n > config.sliding_window, "the long prompt does not outrun the window"
            far = torch.ones(n, n, dtype=torch.bool).tril(-config.sliding_window)
            outside = pattern.detach()[..., far]
            if config.layer_types[index] == "sliding_attention":
                assert float(outside.abs().max()) == 0.0, f"block {index} attends past its window"
            else:
                assert float(outside.abs().min()) > 0.0, f"full-attention block {index} is windowed"

    def test_routed_output_is_the_experts_sum_times_the_factor(self, model):
        # The experts loop in their own forward, so there are no slots to sum; the scale is checked on the sum.
        index, _ = self.mixture(model)
        factor = getattr(model.config.get_text_config(), self.SCALE_KEY)
        assert factor != 1.0, "the checkpoint's factor is one, so a missing scale would pass"

        def body(m):
            mixture = m.layers[index].mlp
            return mixture.shared_expert_output, mixture.experts.output, mixture.routed_output, mixture.mlp_output

        shared, experts, routed, out = run(model, body)
        assert torch.equal(routed[0], experts * factor)
        assert torch.equal(routed + shared, out)

    def test_mlp_layer_types_decide_the_mixture_blocks(self, model):
        kinds = [isinstance(block.mlp, Moe) for block in model.layers]
        config = model.config.get_text_config()
        assert kinds == [kind == "sparse" for kind in config.mlp_layer_types] == [False, True]

    def test_weights_are_the_renormalized_sigmoid_scores_chosen_with_the_bias(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float())
        bias = model.layers[1].mlp.gate._module.e_score_correction_bias
        assert bool(bias.abs().max() > 0)
        chosen = (scores + bias).topk(2, dim=-1).indices
        assert torch.equal(indices.sort(-1).values, chosen.sort(-1).values)
        picked = scores.gather(-1, indices)
        assert torch.allclose(weights, picked / picked.sum(-1, keepdim=True), atol=1e-6)

    def test_the_gate_scales_each_head_before_the_output_projection(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.g_proj.output, attn.attention_head_outputs, attn.attention_premix

        gate, heads, premix = run(model, body)
        expected = heads * torch.sigmoid(gate).unsqueeze(-1)
        assert torch.allclose(premix, expected, atol=1e-6)
