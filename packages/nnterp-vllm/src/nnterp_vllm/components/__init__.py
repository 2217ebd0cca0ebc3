"""The shapes the vLLM families share: attention, MLP, mixture and block envoys over vLLM's modules.

`nnterp_vllm.components.<module>` holds each; the names below are the ones a family
module builds on. Importing this package needs neither vLLM nor a GPU.
"""

from .attention import DECODE, Attention, causal_scores, on_decode_step
from .layer import FusedLayer, Layer
from .mlp import GATED, ROUTED, Mlp, RoutedMlp, gated
from .moe import Moe
from .reasons import LM_HEAD, NO_MASK
from .values import Flat, Rows, Sum

__all__ = [
    "DECODE",
    "GATED",
    "LM_HEAD",
    "NO_MASK",
    "ROUTED",
    "Attention",
    "Flat",
    "FusedLayer",
    "Layer",
    "Mlp",
    "Moe",
    "RoutedMlp",
    "Rows",
    "Sum",
    "causal_scores",
    "gated",
    "on_decode_step",
]
