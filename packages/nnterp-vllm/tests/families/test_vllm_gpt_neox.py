"""GPT-NeoX on vLLM's transformers backend against the transformers engine: a parallel block, partial rotary."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import gpt_neox


class TestVLLMGPTNeoX(VLLMSuite):
    CHECKPOINT = "gpt_neox"
    FAMILY = gpt_neox
    RESIZE = {"hidden_size": 128, "intermediate_size": 128}
    UNAVAILABLE = ALWAYS_UNAVAILABLE | {"layer_mid"}

    def test_the_engine_runs_transformers_modules(self, engine):
        assert type(engine._module).__name__ == "TransformersForCausalLM"
        assert type(engine.layers[0]._module).__module__ == "transformers.models.gpt_neox.modeling_gpt_neox"
