"""I-BERT (`ibert`) in miniature, under its masked-LM head, with quantization off.

I-BERT's integer-only norm (`IntLayerNorm`) starts with zero weights and biases, which
the random init leaves alone: every norm would output (almost) nothing, so `prepare`
draws them as a trained norm's are, weights near one and small biases.
"""

from ..entry import INIT_STD, TEXT_DEFAULTS, Entry


def norms_near_one(model) -> None:
    """Draw every `IntLayerNorm`'s weight near one and its bias near zero, in module order, from one generator."""
    import torch

    generator = torch.Generator().manual_seed(0)
    for module in model.modules():
        if type(module).__name__ == "IntLayerNorm":
            weight = torch.randn(module.weight.shape, generator=generator)
            bias = torch.randn(module.bias.shape, generator=generator)
            module.weight.copy_(1 + 0.1 * weight)
            module.bias.copy_(INIT_STD * bias)


ENTRIES = (
    Entry(
        "ibert",
        "ibert",
        {
            **{key: value for key, value in TEXT_DEFAULTS.items() if key != "attention_dropout"},
            "intermediate_size": 96,
            "num_hidden_layers": 2,
            "max_position_embeddings": 128,
            "hidden_dropout_prob": 0.0,
            "attention_probs_dropout_prob": 0.0,
            "pad_token_id": 0,
            "quant_mode": False,
        },
        tokenizer="encoder",
        auto_class="AutoModelForMaskedLM",
        prepare=norms_near_one,
    ),
)
