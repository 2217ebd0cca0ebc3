"""CTRL on vLLM's transformers backend against the transformers engine: names of its own, a sequential MLP, a scaled embedding."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import ctrl


class TestVLLMCtrl(VLLMSuite):
    CHECKPOINT = "ctrl"
    FAMILY = ctrl
    RESIZE = {"n_embd": 128, "n_head": 4, "dff": 128}
    UNAVAILABLE = ALWAYS_UNAVAILABLE
