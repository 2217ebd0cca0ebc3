"""Hunyuan MoE on vLLM's transformers backend (``TransformersMoEForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). vLLM has no Hunyuan MoE of its
own, so the block, attention and mixture are transformers' classes with vLLM's linear layers, norms and attention
layer (``self_attn.attn``) inside, and the block's values carry the batch axis. The attention norms each head's
query and key after the rotary embedding. The mixture runs its shared expert (``shared_mlp``) first, then its
router (``gate``) in transformers' code: ``wg`` gives the logits, a softmax over every expert keeps the top
``moe_topk``, renormalized, and the experts module, swapped for vLLM's kernel runner, receives the chosen experts
and their weights; the module returns the routed sum plus the shared expert's output.
"""

from transformers.models.hunyuan_v1_moe.modeling_hunyuan_v1_moe import (
    HunYuanMoEV1Attention,
    HunYuanMoEV1DecoderLayer,
    HunYuanMoEV1Moe,
)

from nnterp_vllm.components import transformers_backend as base
from nnterp_vllm.components import transformers_moe

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """Hunyuan MoE's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """Hunyuan MoE's attention; its output is what the block adds, so the base holds."""


class Moe(transformers_moe.BackendMoe):
    """Hunyuan's mixture: the logits at the router's ``wg``, the routing into the kernel runner, ``shared_mlp`` beside."""

    LOGITS = "gate.wg.output"
    SHARED = "shared_mlp.output"


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {HunYuanMoEV1DecoderLayer: Layer, HunYuanMoEV1Attention: Attention, HunYuanMoEV1Moe: Moe}
