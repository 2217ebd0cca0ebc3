"""Gemma 4 (text) on vLLM against the transformers engine: the sandwich block, a per-layer input, a scaled sum."""

import nnsight

from nnterp_harness.vllm_suite import PROMPT, VLLMSuite, gap
from nnterp_vllm.families import gemma4_text


class TestVLLMGemma4Text(VLLMSuite):
    CHECKPOINT = "gemma4_text"
    FAMILY = gemma4_text

    def test_contributions_add_up_to_the_block_output(self, engine, hf, served):
        # The block adds a per-layer term after the MLP and scales the whole sum by its `layer_scalar`, a buffer of
        # the checkpoint (the engine's client holds no weights, so it is read off the transformers model).
        blocks = list(range(engine.num_layers))
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            parts = nnsight.save([])
            for index in blocks:
                block = engine.layers[index]
                parts.append(
                    (
                        block.layer_input,
                        block.self_attn.attention_output,
                        block.mlp.mlp_output,
                        block.post_per_layer_input_norm.output.clone(),
                        block.layer_output,
                    )
                )
        for index, (x, attn, mlp, per_layer, out) in enumerate(parts):
            scalar = hf.layers[index]._module.layer_scalar
            assert gap(scalar * (x + attn + mlp + per_layer), out) <= 1e-6, index
