import torch

from ..entry import TEXT_DEFAULTS, Entry


def balancing_biases(model) -> None:
    """Draw the experts' balancing biases off zero (small seeded values); the skip class keeps its -1, which
    transformers' weight init writes again at every load."""
    generator = torch.Generator().manual_seed(0)
    for block in model.model.layers:
        biases = block.mlp.gate.balancing_biases
        biases.copy_(0.05 * torch.randn(biases.shape, generator=generator))
        biases[-1] = -1.0


# A full-attention block, then a sliding-window one; four experts beside the router's skip class, one per token
# (the only top-k the config accepts).
ENTRIES = (
    Entry(
        "zaya",
        "zaya",
        {
            **TEXT_DEFAULTS,
            "moe_intermediate_size": 32,
            "num_experts": 4,
            "num_experts_per_tok": 1,
            "router_hidden_size": 32,
            "num_hidden_layers": 2,
            "layer_types": ["hybrid", "hybrid_sliding"],
            "sliding_window": 128,
            "num_key_value_heads": 2,
            "head_dim": 16,
        },
        prepare=balancing_biases,
    ),
)
