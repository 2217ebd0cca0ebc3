"""Mellum on vLLM's transformers backend against the transformers engine: sliding blocks and a fused softmax mixture."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import mellum


class TestVLLMMellum(VLLMSuite):
    CHECKPOINT = "mellum"
    FAMILY = mellum
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.shared_expert_output"}
    #: Every block a mixture, so one set of values holds on every block.
    RESIZE = {**WIDE_HEADS, "mlp_layer_types": ["sparse", "sparse", "sparse"]}

    def test_the_engine_runs_transformers_modules(self, engine):
        assert type(engine._module).__name__ == "TransformersMoEForCausalLM"
        assert type(engine.layers[0].mlp._module).__module__ == "transformers.models.mellum.modeling_mellum"
