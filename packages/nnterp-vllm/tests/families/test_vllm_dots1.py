"""dots.llm1 on vLLM's transformers backend against the transformers engine: a grouped sigmoid mixture vLLM fuses whole."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import dots1


class TestVLLMDots1(VLLMSuite):
    CHECKPOINT = "dots1"
    FAMILY = dots1
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.routed_output"}
    #: Every block a mixture, so one set of values holds on every block (the shared experts are the gated MLP).
    RESIZE = {**WIDE_HEADS, "first_k_dense_replace": 0}

    def test_the_engine_runs_transformers_modules(self, engine):
        assert type(engine._module).__name__ == "TransformersMoEForCausalLM"
        assert type(engine.layers[0].mlp._module).__module__ == "transformers.models.dots1.modeling_dots1"
