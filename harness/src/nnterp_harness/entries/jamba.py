import math

import torch

from ..entry import INIT_STD, TEXT_DEFAULTS, Entry


def redraw(model) -> None:
    """Draw every parameter again, by sorted name, so that every release builds the same weights.

    The releases build the router as different modules, which shifts the random init
    stream. The mixer's parameters keep Mamba's shapes of init: `A_log` near
    `log(1..state_dim)`, `D` near one, and a `dt_proj` bias whose softplus lies between
    0.001 and 0.1.
    """
    generator = torch.Generator().manual_seed(0)
    params = dict(model.named_parameters())
    for name in sorted(params):
        param = params[name]
        noise = torch.randn(param.shape, generator=generator, dtype=param.dtype)
        if name.endswith("A_log"):
            base = torch.log(torch.arange(1, param.shape[-1] + 1, dtype=param.dtype))
            param.copy_(base + 0.1 * noise)
        elif name.endswith("norm.weight") or name.endswith(".D"):
            param.copy_(1 + 0.1 * noise)
        elif name.endswith("dt_proj.bias"):
            steps = torch.exp(math.log(1e-3) + torch.rand(param.shape, generator=generator) * math.log(100))
            param.copy_(torch.log(torch.expm1(steps)))
        else:
            param.copy_(INIT_STD * noise)


#: Jamba in miniature: a Mamba-1 block with a mixture, then an attention block with a dense MLP.
JAMBA_SHAPE = {
    **TEXT_DEFAULTS,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "attn_layer_period": 2,
    "attn_layer_offset": 1,
    "expert_layer_period": 2,
    "expert_layer_offset": 0,
    "num_experts": 4,
    "num_experts_per_tok": 2,
    "num_key_value_heads": 2,
    "mamba_d_state": 16,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "mamba_dt_rank": 8,
}

ENTRIES = (Entry("jamba", "jamba", JAMBA_SHAPE, prepare=redraw, init_in_float64=True),)
