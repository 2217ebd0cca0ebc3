import inspect

import torch

from ..entry import TEXT_DEFAULTS, Entry


def mixture_unsupported() -> str | None:
    """Why this release's Doge block cannot run the mixture, or `None`.

    transformers 5.17's block hands the mixture's `(output, router_logits)` tuple to
    dropout as it comes; later releases unpack it first.
    """
    import nnsight  # noqa: F401  - before any transformers modeling module
    from transformers.models.doge import modeling_doge

    if "is_moe" in inspect.getsource(modeling_doge.DogeDecoderLayer.forward):
        return None
    return (
        "this transformers release's Doge block cannot run a mixture: it passes DogeCDMoE's (output, router_logits) "
        "tuple to dropout unpacked (TypeError: dropout(): argument 'input' (position 1) must be Tensor, not tuple)"
    )


def residual_gates(model) -> None:
    """Draw the per-channel stream gates well away from one, so a block that forgot them is caught."""
    generator = torch.Generator().manual_seed(0)
    for block in model.model.layers:
        for gate in (block.input_residual, block.post_attention_residual):
            gate.copy_(0.5 + torch.rand(gate.shape, generator=generator))


ENTRIES = (
    Entry(
        "doge",
        "doge",
        {
            **TEXT_DEFAULTS,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_key_value_heads": 2,
            "is_moe": True,
            # Product-key routing: a square number of experts, 4 keys on each side.
            "num_experts": 16,
            "num_experts_per_tok": 2,
            "norm_topk_prob": False,
            "hidden_dropout": 0.0,
        },
        prepare=residual_gates,
        cannot_run=mixture_unsupported,
    ),
)
