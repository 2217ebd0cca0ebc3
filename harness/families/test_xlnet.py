"""XLNet (`xlnet`), end to end: post-LN blocks on a sequence-first stream, relative attention, no final norm."""

from typing import Any

import torch

from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.resend import ResendChecks
from nnterp_harness.suite import PROMPT, FamilySuite, rows, run

FAMILY = family("xlnet")


class TestXLNet(FamilySuite):
    CHECKS = (ResendChecks,)
    CHECKPOINT = "xlnet"
    FAMILY = FAMILY
    NATIVE = rows(
        "transformer",
        "layer",
        "word_embedding",
        None,
        attn="rel_attn",
        ln1=None,
        ln2="rel_attn.layer_norm",
        mlp="ff",
        head="lm_loss",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = "mlp.layer_norm"
    PLAIN_UP_PROJ = True
    KEEPS_CACHE = False
    MLP_WIDTH_KEY = "d_inner"

    def native(self, value):
        # Every block holds the stream sequence-first; the values are batch-first.
        return value.transpose(0, 1)

    def appended_id(self, model):
        return 0

    def test_attention_interior_under_generate(self, model, clean):
        # A decode step runs the two-stream forward: the block boundaries serve the content stream, n + 2 ids
        # long, and the attention's one-stream branch, where the interior is read, does not run.
        n = self.n_tokens(clean)
        (stream, logits), _ = self.decode_step(model, lambda m: (m.layers[0].layer_output, m.logits))
        assert tuple(stream.shape) == (1, n + 2, model.hidden_size), tuple(stream.shape)
        assert logits.shape[1] == 1, "the two-stream step predicts one target"
        box: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
            for _ in tracer.iter[1:2]:
                box.append(model.layers[0].self_attn.attention_probabilities)
        assert box == [], "the one-stream interior was read on a two-stream step"

    def test_one_stream_pattern_is_causal(self, model):
        # `attn_type="uni"`: a position attends to itself and the positions before it.
        pattern = run(model, lambda m: m.layers[0].self_attn.attention_probabilities)
        future = torch.ones(pattern.shape[-2:], dtype=torch.bool).triu(1)
        assert float(pattern[..., future].abs().max()) == 0.0, "a position attends to a later one"
