"""Solar Open on vLLM's transformers backend (``TransformersMoEForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). vLLM has no Solar Open of its
own, so the block, attention and mixture are transformers' classes with vLLM's linear layers, norms and attention
layer (``self_attn.attn``) inside, and the block's values carry the batch axis. Every block's MLP is a mixture,
whose forward vLLM rewrites to call its fused runner (``experts``): the runner calls ``gate`` for the router's
logits, takes their sigmoid, adds the score correction bias for the choice of the top ``num_experts_per_tok``
within the best ``topk_group`` of ``n_group`` groups, weighs them by ``routed_scaling_factor``, runs those experts
and, in the same call, the shared experts, returning the sum. So the shared experts' contribution is served at
their module and the routed sum alone is not.
"""

from transformers.models.solar_open.modeling_solar_open import SolarOpenAttention, SolarOpenDecoderLayer, SolarOpenMoE

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
    """Solar Open's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """Solar Open's attention; its output is what the block adds, so the base holds."""


class Moe(transformers_moe.BackendFusedMoe):
    """Solar Open's mixture: the router's logits at ``gate``, the shared experts inside the runner's call."""

    ROUTED_KEY = None
    SHARED = "shared_experts"


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {SolarOpenDecoderLayer: Layer, SolarOpenAttention: Attention, SolarOpenMoE: Moe}
