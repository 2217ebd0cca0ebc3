"""Hunyuan dense on vLLM's transformers backend against the transformers engine: Llama's block, per-head query and key norms after the rotary embedding."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import hunyuan_v1_dense


class TestVLLMHunyuanV1Dense(VLLMSuite):
    CHECKPOINT = "hunyuan_v1_dense"
    FAMILY = hunyuan_v1_dense
