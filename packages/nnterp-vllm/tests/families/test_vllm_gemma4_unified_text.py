"""Gemma 4 unified (text) on vLLM's transformers backend against the transformers engine: the sandwich block, a scaled sum."""

import nnsight

from nnterp_harness.vllm_suite import PROMPT, VLLMSuite, gap
from nnterp_vllm.families import gemma4_unified_text


class TestVLLMGemma4UnifiedText(VLLMSuite):
    CHECKPOINT = "gemma4_unified_text"
    FAMILY = gemma4_unified_text

    def test_the_engine_runs_transformers_modules(self, engine):
        assert type(engine._module).__name__ == "TransformersForCausalLM"
        module = type(engine.layers[0]._module).__module__
        assert module == "transformers.models.gemma4_unified.modeling_gemma4_unified"

    def test_contributions_add_up_to_the_block_output(self, engine, hf, served):
        # The block scales its sum by `layer_scalar`, a buffer of the checkpoint (the engine's client holds no
        # weights, so it is read off the transformers model).
        blocks = list(range(engine.num_layers))
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            parts = nnsight.save([])
            for index in blocks:
                block = engine.layers[index]
                parts.append(
                    (block.layer_input, block.self_attn.attention_output, block.mlp.mlp_output, block.layer_output)
                )
        for index, (x, attn, mlp, out) in enumerate(parts):
            scalar = hf.layers[index]._module.layer_scalar
            assert gap(scalar * (x + attn + mlp), out) <= 1e-6, index
