import torch

from ..entry import INIT_STD, TEXT_DEFAULTS, Entry


def redraw(model) -> None:
    """Draw every parameter again in a release-independent order.

    The releases build the router's correction bias under different modules, which
    shifts the random init stream; drawing by sorted canonical name gives every
    release the same weights.
    """
    generator = torch.Generator().manual_seed(0)
    params = {name.replace("gate.moe_statics.", "moe_statics."): param for name, param in model.named_parameters()}
    for name in sorted(params):
        param = params[name]
        noise = torch.randn(param.shape, generator=generator, dtype=param.dtype)
        if name.endswith("norm.weight"):
            param.copy_(1 + 0.1 * noise)
        elif "e_score_correction_bias" in name:
            param.copy_(0.1 * noise)
        else:
            param.copy_(INIT_STD * noise)


ENTRIES = (
    Entry(
        "ernie4_5_moe",
        "ernie4_5_moe",
        {
            **TEXT_DEFAULTS,
            "intermediate_size": 64,
            "moe_intermediate_size": 32,
            "num_experts": 4,
            "num_experts_per_tok": 2,
            "moe_num_shared_experts": 1,
            "moe_layer_start_index": 1,
            "moe_layer_end_index": 1,
            "moe_layer_interval": 1,
            "num_hidden_layers": 2,
            "num_key_value_heads": 2,
            "head_dim": 16,
        },
        prepare=redraw,
    ),
)
