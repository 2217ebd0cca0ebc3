"""Hunyuan 3 (`HYV3ForCausalLM`): Llama's order, query/key norms, and a sigmoid mixture with shared experts after dense blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms each head's queries and keys (`q_norm`, `k_norm`) before the
rotary embedding. `config.mlp_layer_types` says which blocks carry a dense MLP and
which a mixture, so the mixture values are reported per block. The router (`gate`)
scores its float32 logits with a sigmoid, adds the mixture's correction bias for the
choice of the top `top_k` only, and weighs the chosen experts by their sigmoid
scores, renormalized and multiplied by `router_scaling_factor`. The shared experts
run on the mixture's input after the routed experts; with
`enable_moe_fp32_combine` the two are summed in float32.
"""

from transformers.models.hy_v3.modeling_hy_v3 import HYV3MLP, HYV3Attention, HYV3DecoderLayer, HYV3MoE

from nnterp.components import Attention, Layer, Mlp, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Hunyuan 3's mixture: a sigmoid router with the mixture's correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    HYV3DecoderLayer: Layer,
    HYV3Attention: Attention,
    HYV3MLP: Mlp,
    HYV3MoE: Moe,
}
