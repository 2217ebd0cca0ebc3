"""Ministral 3 on vLLM against the transformers engine: Mistral's block with Llama 4's query scale.

The test copy also states the scale in the entry vLLM reads (``llama_4_scaling``), with the values the pinned
checkpoint keeps in ``rope_parameters``, so both engines scale the queries.
"""

from nnterp_harness.vllm_suite import WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import ministral3


class TestVLLMMinistral3(VLLMSuite):
    CHECKPOINT = "ministral3"
    FAMILY = ministral3
    RESIZE = {**WIDE_HEADS, "llama_4_scaling": {"original_max_position_embeddings": 4, "beta": 0.5}}

    def test_the_copy_states_the_scale_as_the_checkpoint_does(self, engine):
        rope = engine.config.rope_parameters
        scaling = engine.config.llama_4_scaling
        assert (scaling["original_max_position_embeddings"], scaling["beta"]) == (
            rope["original_max_position_embeddings"],
            rope["llama_4_scaling_beta"],
        )
