import torch

from ..entry import GROUPED_TOP_K_SHAPE, INIT_STD, LATENT_ATTENTION_SHAPE, Entry

#: The Ling hybrid in miniature: a Kimi delta attention block (4 heads of `head_dim`) with the dense MLP, then a
#: gated latent attention block with a grouped mixture (8 experts in 4 groups) and a shared expert.
BAILING_HYBRID_SHAPE = {
    **LATENT_ATTENTION_SHAPE,
    **GROUPED_TOP_K_SHAPE,
    "hidden_size": 64,
    "intermediate_size": 64,
    "q_lora_rank": None,
    "head_dim": 16,
    "layer_types": ["linear_attention", "full_attention"],
    "short_conv_kernel_size": 4,
    "moe_intermediate_size": 16,
    "num_experts": 8,
    "n_shared_experts": 1,
    "num_mtp_layers": 0,
    "initializer_range": INIT_STD,
}


def gates_in_range(model) -> None:
    """Draw the forget gates' `A_log` and `dt_bias` so the bounded decay spreads over its range.

    The init's decay rates (1 to 16) times its `dt_bias` (near -5) put the safe gate's
    sigmoid at about `exp(-50)`, so every decay is zero to float precision and the state
    never forgets. Rates near one and a bias near zero spread the decays over
    `(kda_lower_bound, 0)`.
    """
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, param in sorted(model.named_parameters()):
            if name.endswith("forget_gate.A_log"):
                param.copy_(0.3 * torch.randn(param.shape, generator=generator))
            elif name.endswith("forget_gate.dt_bias"):
                param.copy_(-1.0 + 0.5 * torch.randn(param.shape, generator=generator))


ENTRIES = (Entry("bailing_hybrid", "bailing_hybrid", BAILING_HYBRID_SHAPE, prepare=gates_in_range),)
