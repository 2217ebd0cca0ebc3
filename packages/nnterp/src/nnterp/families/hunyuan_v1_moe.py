"""Hunyuan MoE (`HunYuanMoEV1ForCausalLM`): Hunyuan's block with a mixture of experts and an ungated shared expert.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`query_layernorm` and `key_layernorm` norm each head's query and key after the
rotary embedding; `attention_queries` and `attention_keys` are read after them, as
the interface receives them. The mixture runs its shared expert (`shared_mlp`, a
dense gated MLP) first, so `shared_expert_output` is read before the router. The
router (`gate`) projects the stream with its float32 linear layer `wg`, takes a
softmax over every expert, keeps the top `top_k` and renormalizes them; the module
returns the routed experts' sum plus the shared expert's output.
"""

from transformers.models.hunyuan_v1_moe.modeling_hunyuan_v1_moe import (
    HunYuanMoEV1Attention,
    HunYuanMoEV1DecoderLayer,
    HunYuanMoEV1Moe,
)

from nnterp.components import Attention, Layer, Moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Moe(Moe):
    """Hunyuan's mixture: the shared expert first, then a softmax router over `wg` (`gate`) and grouped experts."""

    SCORING = "softmax"
    ROUTER = "gate"
    LOGITS = "self_wg_0"
    SHARED = "shared_mlp.output"


ENVOYS = {
    HunYuanMoEV1DecoderLayer: Layer,
    HunYuanMoEV1Attention: Attention,
    HunYuanMoEV1Moe: Moe,
}
