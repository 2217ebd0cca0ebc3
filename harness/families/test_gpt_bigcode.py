"""GPTBigCode, end to end: GPT-2's spellings around a multi-query attention."""

from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, rows

FAMILY = family("gpt_bigcode")


class TestGPTBigCode(FamilySuite):
    CHECKPOINT = "gpt_bigcode"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "wte", "ln_f", attn="attn", ln1="ln_1", ln2="ln_2")
    REFUSES_IN_PLACE_QKV = True
    MLP_WIDTH_KEY = "n_inner"

    def test_one_key_and_value_head_serves_every_query_head(self, model):
        attention = model.layers[0].self_attn
        assert model.config.multi_query
        assert attention.num_kv_heads == 1 and attention.num_heads == 4
        keys = []
        with model.trace(PROMPT):
            keys.append(attention.attention_keys.save())
        assert keys[0].shape[1] == 1
