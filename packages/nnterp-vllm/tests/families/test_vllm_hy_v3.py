"""Hunyuan 3 on vLLM against the transformers engine: a biased sigmoid mixture with its shared experts in the kernel's call."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import hy_v3


class TestVLLMHYV3(VLLMSuite):
    CHECKPOINT = "hy_v3"
    FAMILY = hy_v3
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.routed_output"}
    #: Every block a mixture, so one set of values holds on every block; the entries vLLM reads stated with what
    #: transformers' Hunyuan 3 does (per-head query/key norms, renormalized weights, the checkpoint's expert width).
    RESIZE = {
        **WIDE_HEADS,
        "mlp_layer_types": ["sparse", "sparse"],
        "first_k_dense_replace": 0,
        "expert_hidden_dim": 32,
        "qk_norm": True,
        "route_norm": True,
    }

    def test_the_copy_states_the_expert_width_as_the_checkpoint_does(self, engine):
        assert engine.config.expert_hidden_dim == engine.config.moe_intermediate_size
