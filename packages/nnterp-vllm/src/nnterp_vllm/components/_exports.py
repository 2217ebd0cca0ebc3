"""The public names of `nnterp.components.vllm`."""

from .attention import DECODE, Attention, causal_scores
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
]
