"""Solar Open on vLLM's transformers backend against the transformers engine: a grouped sigmoid mixture vLLM fuses whole."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import solar_open


class TestVLLMSolarOpen(VLLMSuite):
    CHECKPOINT = "solar_open"
    FAMILY = solar_open
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.routed_output"}

    def test_the_engine_runs_transformers_modules(self, engine):
        assert type(engine._module).__name__ == "TransformersMoEForCausalLM"
        assert type(engine.layers[0].mlp._module).__module__ == "transformers.models.solar_open.modeling_solar_open"
