"""GLM-4, end to end: GLM's block with a post-norm after each sublayer."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("glm4")


class TestGlm4(FamilySuite):
    CHECKPOINT = "glm4"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False

    def test_the_contributions_are_the_post_norms(self, model):
        def body(m):
            block = m.layers[0]
            return (
                block.self_attn.attention_output,
                block.post_self_attn_layernorm.output,
                block.mlp.output,
                block.mlp.mlp_output,
                block.post_mlp_layernorm.output,
            )

        attn, attn_norm, mlp_module, mlp, mlp_norm = run(model, body)
        assert torch.equal(attn, attn_norm)
        assert torch.equal(mlp, mlp_norm) and not torch.equal(mlp, mlp_module)

    def test_neurons_are_the_activated_gate_times_the_up_half(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.gate_up_proj.output, mlp.mlp_activation, mlp.mlp_neurons

        fused, activation, neurons = run(model, body)
        _, up = fused.chunk(2, dim=-1)
        assert torch.equal(neurons, up * activation), "mlp_neurons is not up * act(gate)"
