"""Sarvam-MLA (`sarvam_mla`, built as `DeepseekV3ForCausalLM`), end to end: latent attention without a query
low-rank step, a dense first block, then a grouped sigmoid mixture with shared experts."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite

FAMILY = family("sarvam_mla")


class TestSarvamMla(FamilySuite):
    CHECKPOINT = "sarvam_mla"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    REFUSES_IN_PLACE = ("attention_values",)

    def test_the_config_type_builds_deepseek_v3(self, model):
        assert model.config.model_type == "sarvam_mla"
        assert type(model._module).__name__ == "DeepseekV3ForCausalLM"
        assert model.config.q_lora_rank is None
        assert hasattr(model.layers[0].self_attn._module, "q_proj")

    def test_first_block_is_dense(self, model):
        assert model.support(layer=1)["mlp.router_logits"] is None
        assert model.support(layer=0)["mlp.router_logits"] == "the mlp on this block has no router_logits"

    def test_latent_attention_keeps_one_key_value_head_per_query_head(self, model):
        attn = model.layers[0].self_attn
        assert attn.num_kv_heads == attn.num_heads == model.config.num_attention_heads
        assert (attn.qk_head_dim, attn.head_dim) == (24, 16)
