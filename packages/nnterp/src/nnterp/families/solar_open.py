"""Solar Open (`SolarOpenForCausalLM`): a Llama-order block whose every MLP is a grouped sigmoid mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Every block carries the mixture; there are no dense blocks. The router (`gate`)
scores its logits with a sigmoid, adds a correction bias for the choice only, keeps
the best `topk_group` of `n_group` expert groups and then the top `top_k` experts;
the weights are their sigmoid scores, renormalized when `norm_topk_prob` is set and
multiplied by `routed_scaling_factor`. The shared experts (one dense MLP,
`n_shared_experts` times the expert width) run on the mixture's input after the
routed experts, and the module returns the sum.
"""

from transformers.models.solar_open.modeling_solar_open import (
    SolarOpenAttention,
    SolarOpenDecoderLayer,
    SolarOpenMLP,
    SolarOpenMoE,
)

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Solar Open's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


def intermediate_size(model) -> int:
    """One routed expert's width, `moe_intermediate_size`; the config has no dense MLP width."""
    return model.config.moe_intermediate_size


ENVOYS = {
    SolarOpenDecoderLayer: Layer,
    SolarOpenAttention: Attention,
    SolarOpenMLP: Mlp,
    SolarOpenMoE: Moe,
}
