"""Hunyuan MoE on vLLM's transformers backend against the transformers engine: transformers' routing into vLLM's kernel."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import hunyuan_v1_moe


class TestVLLMHunyuanV1Moe(VLLMSuite):
    CHECKPOINT = "hunyuan_v1_moe"
    FAMILY = hunyuan_v1_moe
    UNAVAILABLE = ALWAYS_UNAVAILABLE | {"mlp.mlp_activation", "mlp.mlp_neurons", "mlp.expert_outputs"}

    def test_the_engine_runs_transformers_modules(self, engine):
        assert type(engine._module).__name__ == "TransformersMoEForCausalLM"
        assert (
            type(engine.layers[0].mlp._module).__module__
            == "transformers.models.hunyuan_v1_moe.modeling_hunyuan_v1_moe"
        )
