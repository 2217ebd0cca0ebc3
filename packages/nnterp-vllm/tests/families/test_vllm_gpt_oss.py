"""GPT-OSS on vLLM against the transformers engine: attention sinks, a softmax mixture with biased experts."""

import nnsight

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, PROMPT, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import gpt_oss


class TestVLLMGptOss(VLLMSuite):
    CHECKPOINT = "gpt_oss"
    FAMILY = gpt_oss
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.shared_expert_output"}
    #: vLLM clamps the experts' activation at gpt-oss's published limit and builds an untied head, as the published
    #: checkpoints have them; the copy states both, where the pinned checkpoint clamps at 3 and ties.
    RESIZE = {**WIDE_HEADS, "swiglu_limit": 7.0, "tie_word_embeddings": False}

    def test_the_sinks_take_a_share_of_every_row(self, engine):
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            rows = nnsight.save(engine.layers[0].self_attn.attention_probabilities.sum(-1))
        assert bool((rows < 1 - 1e-4).all())
