"""The pattern an attention with a sink column per head makes of its masked scores."""

from __future__ import annotations

import torch


def sink_pattern(scores: torch.Tensor, sinks: torch.Tensor) -> torch.Tensor:
    """`softmax` over the scores joined by each head's sink logit, the sink column dropped after it."""
    sink = sinks.to(scores.dtype).view(1, -1, 1, 1).expand(*scores.shape[:-1], 1)
    joined = torch.cat([scores, sink], dim=-1)
    return torch.softmax(joined - joined.max(-1, keepdim=True).values, dim=-1)[..., :-1]
