import torch

from ..entry import TEXT_DEFAULTS, Entry


def distinct_decays(model) -> None:
    """Give every channel its own decay rates: the S4D init repeats one row of `A` on every channel and head."""
    generator = torch.Generator().manual_seed(0)
    for block in model.model.layers:
        mixer = getattr(block, "mamba", None) or block.mamba_decoder.mamba
        mixer.A_log.add_(0.3 * torch.randn(mixer.A_log.shape, generator=generator))


#: Zamba in miniature: a Mamba block, then two hybrid blocks sharing one transformer block; the 64-channel mixer
#: runs as two heads, each a selective scan of its own.
ZAMBA_SHAPE = {
    **TEXT_DEFAULTS,
    "intermediate_size": 64,
    "num_hidden_layers": 3,
    "layers_block_type": ["linear_attention", "hybrid", "hybrid"],
    "num_key_value_heads": 4,
    "n_mamba_heads": 2,
    "mamba_expand": 1,
    "mamba_d_state": 8,
    "mamba_d_conv": 4,
    "mamba_dt_rank": 8,
}

ENTRIES = (Entry("zamba", "zamba", ZAMBA_SHAPE, prepare=distinct_decays, init_in_float64=True),)
