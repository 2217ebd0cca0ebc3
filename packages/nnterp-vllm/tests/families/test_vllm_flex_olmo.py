"""FlexOlmo on vLLM's transformers backend against the transformers engine: OLMo 2's post-norm block, a fused mixture."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import flex_olmo


class TestVLLMFlexOlmo(VLLMSuite):
    CHECKPOINT = "flex_olmo"
    FAMILY = flex_olmo
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"attention_norm_output", "mlp_norm_output", "mlp.shared_expert_output"}

    def test_the_engine_runs_transformers_modules(self, engine):
        assert type(engine._module).__name__ == "TransformersMoEForCausalLM"
        assert type(engine.layers[0].mlp._module).__module__ == "transformers.models.flex_olmo.modeling_flex_olmo"
