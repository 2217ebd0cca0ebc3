"""muse_glimmer_text: its text family's suite on the `muse_glimmer` wrapper checkpoint, beside the wrapper's `test_muse_glimmer.py`.

No causal-LM class of the auto mapping builds `muse_glimmer_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("muse_glimmer")

import torch
from test_muse_glimmer import FAMILY, PROCESSOR, PROMPT

from nnterp_harness.suite import (
    FamilySuite,
    rows,
)


class TestMuseGlimmerText(FamilySuite):
    CHECKPOINT = "muse_glimmer"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    MLP_NORM = "pre_feedforward_layernorm"
    PREMIX_IS_HEAD_OUTPUTS = False

    def test_the_contribution_is_the_post_norm_not_the_module_output(self, model):
        block = model.layers[0]
        with model.trace(PROMPT):
            returned = block.self_attn.output.save()
            attn = block.self_attn.attention_output.save()
            normed = block.post_attention_layernorm.output.save()
        assert torch.equal(attn, normed) and not torch.equal(attn, returned[0])

    def test_logits_are_the_scaled_softcapped_head(self, model):
        with model.trace(PROMPT):
            head = model.lm_head_output.save()
            logits = model.logits.save()
        config = model.config.get_text_config()
        cap, scale = config.final_logit_softcapping, config.output_multiplier
        assert cap and scale != 1 and not torch.equal(head, logits)
        assert torch.allclose(logits, cap * torch.tanh(head * scale / cap), atol=1e-5)

    def test_the_last_block_has_no_rotary(self, model):
        config = model.config.get_text_config()
        assert config.layer_rope_theta[-1] == 0 and all(config.layer_rope_theta[:-1])
        assert config.layer_types[-1] == "full_attention" and config.layer_types[0] == "sliding_attention"

    def test_the_embedding_is_normed(self, model):
        with model.trace(PROMPT):
            embedded = model.embed_tokens.output.save()
        assert torch.allclose(embedded.pow(2).mean(-1), torch.ones(()), atol=1e-3)
