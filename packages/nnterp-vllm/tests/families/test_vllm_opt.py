"""OPT on vLLM against the transformers engine: no mlp module, the feed-forward stream flat over tokens."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import opt


class TestVLLMOPT(VLLMSuite):
    CHECKPOINT = "opt"
    FAMILY = opt
    RESIZE = {"hidden_size": 128, "ffn_dim": 128, "word_embed_proj_dim": 128}
    #: OPT's block holds its MLP's layers itself, with no `mlp` module: `support()` keeps the `mlp.*` keys with why.
    UNAVAILABLE = ALWAYS_UNAVAILABLE | {"mlp_input", "mlp.mlp_activation", "mlp.mlp_neurons", "mlp.mlp_output"}

    @classmethod
    def as_transformers(cls, engine, name, value):
        """Transformers' OPT scales the queries by head_dim ** -0.5 before attention; vLLM's kernel scales the scores."""
        if name == "self_attn.attention_queries":
            return value * engine.layers[0].self_attn.scale()
        return value
