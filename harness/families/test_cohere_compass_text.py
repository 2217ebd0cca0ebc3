"""Cohere Compass text, end to end: Cohere's parallel block, a rotary embedding per layer type, the scaled head.

The block adds `(x + attn) + mlp`, the identity's own order, so the suite's identity
holds bit for bit here although the block is parallel. The checkpoint's global
blocks run without a rotary embedding (their layer type's `rope_parameters` is `None`).
"""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("cohere_compass_text")


class TestCohereCompassText(FamilySuite):
    CHECKPOINT = "cohere_compass_text"
    FAMILY = FAMILY
    NATIVE = {key: value for key, value in LLAMA_ROWS.items() if key != "layers.0.post_attention_layernorm"}
    # The deepstack taps come with the wrapper's tower, which a text checkpoint has none of.
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block", "deepstack_output": "no vision tower"}
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True

    def test_logits_are_the_scaled_head(self, model):
        with model.trace("The Eiffel Tower is in"):
            head = model.lm_head_output.save()
            logits = model.logits.save()
        scale = model.config.logit_scale
        assert scale != 1.0 and torch.equal(logits, head * scale)

    def test_only_the_sliding_blocks_rotate(self, model):
        types = model.config.layer_types
        rotated = []
        with model.trace("The Eiffel Tower is in"):
            for i in range(len(model.layers)):
                rotated.append(model.layers[i].inputs[1]["position_embeddings"] is not None)
        assert rotated == [model.config.rope_parameters[kind] is not None for kind in types]
        assert True in rotated and False in rotated
