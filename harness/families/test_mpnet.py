"""MPNet (`mpnet`), end to end: a post-LN encoder whose blocks add one shared relative-position bias."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("mpnet")


class TestMPNet(FamilySuite):
    CHECKPOINT = "mpnet"
    FAMILY = FAMILY
    NATIVE = rows(
        "mpnet",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.LayerNorm",
        head="lm_head",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_scores_add_the_shared_position_bias(self, model):
        def body(m):
            out = []
            for i in range(2):
                attn = m.layers[i].self_attn
                bias = attn.attn.inputs[0][2]
                out.append((attn.attention_queries, attn.attention_keys, bias, attn.attention_scores))
            return out

        reads = run(model, body)
        queries, keys, bias, scores = reads[0]
        content = queries @ keys.transpose(-1, -2) / queries.shape[-1] ** 0.5
        assert float(bias.abs().max()) > 0, "the relative-position bias is zero"
        assert torch.allclose(scores, content + bias, atol=1e-5), "the scores are not q·k / sqrt(d) plus the bias"
        assert reads[1][2].data_ptr() == bias.data_ptr(), "the blocks read two position biases"
