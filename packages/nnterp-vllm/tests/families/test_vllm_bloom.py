"""BLOOM on vLLM against the transformers engine: ALiBi in the kernel, the residual added outside the sublayers."""

import torch

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import bloom


class TestVLLMBloom(VLLMSuite):
    CHECKPOINT = "bloom"
    FAMILY = bloom
    RESIZE = {"hidden_size": 128, "n_head": 4}
    UNAVAILABLE = ALWAYS_UNAVAILABLE

    @classmethod
    def align(cls, module):
        """vLLM's BLOOM runs the exact GELU where transformers' runs its tanh approximation (1e-4 apart here)."""
        for block in module.transformer.h:
            block.mlp.gelu_impl = torch.nn.GELU()
