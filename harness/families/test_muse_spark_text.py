"""muse_spark_text: its text family's suite on the `muse_spark` wrapper checkpoint, beside the wrapper's `test_muse_spark.py`.

No causal-LM class of the auto mapping builds `muse_spark_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import family, skip_unless_known

skip_unless_known("muse_spark")

import torch
from test_muse_spark import FAMILY, PROCESSOR

from nnterp_harness.suite import (
    ROUTED_EXPERTS,
    FamilySuite,
    rows,
    run,
)
from nnterp_harness.weighted_stream import WeightedStreamChecks

#: The text family whose classes the wrapper's text model gets.
TEXT_FAMILY = family("muse_spark_text")


class TestMuseSparkText(FamilySuite):
    CHECKS = (WeightedStreamChecks,)
    CHECKPOINT = "muse_spark"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    # Block 0 is dense (its mlp has no such values), block 1 a mixture without a shared expert, its experts pooled.
    EXPECTED_UNAVAILABLE = {
        **ROUTED_EXPERTS,
        "mlp.expert_outputs": "no expert_outputs",
        "mlp.shared_expert_output": "no shared",
    }
    MOE_UNAVAILABLE = {"expert_outputs": "pooled width", "shared_expert_output": "this mixture has no shared expert"}
    MLP_NORM = "pre_feedforward_layernorm"
    PREMIX_IS_HEAD_OUTPUTS = False
    ROUTER_EXTRA_CLASSES = (TEXT_FAMILY.Mlp,)

    def stream_term(self, block, sublayer, stream):
        gate = block.post_attention_residual_gate if sublayer == "attention" else block.post_feedforward_residual_gate
        return TEXT_FAMILY._gate_weights(gate)[0] * stream

    def test_contributions_are_the_gated_post_norms(self, model):
        def body(m):
            found = []
            for i in range(len(model.layers)):
                b = m.layers[i]
                found.append((b.post_attention_layernorm.output, b.self_attn.attention_output))
                found.append((b.post_feedforward_layernorm.output, b.mlp.mlp_output))
            return found

        for index, (normed, contribution) in enumerate(run(model, body)):
            block = model.layers[index // 2]._module
            gate = block.post_attention_residual_gate if index % 2 == 0 else block.post_feedforward_residual_gate
            beta = torch.sigmoid(gate.gate / gate.temperature)
            assert torch.equal(contribution, beta * normed) and not torch.equal(contribution, normed), index

    def test_mlp_layer_types_decide_the_mixture_blocks(self, model):
        kinds = [isinstance(block.mlp, TEXT_FAMILY.Moe) for block in model.layers]
        types = model.config.get_text_config().mlp_layer_types
        assert kinds == [kind == "sparse" for kind in types] == [False, True]

    def test_weights_are_the_renormalized_sigmoid_scores_of_the_scaled_logits(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        gate = model.layers[1].mlp.gate._module
        scores = torch.sigmoid(logits.float())
        assert torch.equal(
            indices.sort(-1).values, (scores + gate.e_score_correction_bias).topk(2).indices.sort(-1).values
        )
        picked = scores.gather(-1, indices)
        assert torch.allclose(weights, picked / picked.sum(-1, keepdim=True), atol=1e-6)

    def test_the_router_logits_are_the_scaled_projection(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.input, mixture.router_logits

        stream, logits = run(model, body)
        gate = model.layers[1].mlp.gate._module
        projected = stream.reshape(-1, stream.shape[-1]).float() @ gate.weight.float().T
        assert torch.allclose(logits.reshape(projected.shape), projected * gate.output_multiplier, atol=1e-6)

    def test_logits_are_the_scaled_softcapped_head(self, model):
        with model.trace("The Eiffel Tower is in"):
            head = model.lm_head_output.save()
            logits = model.logits.save()
        config = model.config.get_text_config()
        cap, scale = config.final_logit_softcapping, config.output_multiplier
        assert cap and scale != 1 and not torch.equal(head, logits)
        assert torch.allclose(logits, cap * torch.tanh(head * scale / cap), atol=1e-5)
