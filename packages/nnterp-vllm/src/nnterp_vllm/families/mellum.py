"""Mellum on vLLM's transformers backend (``TransformersMoEForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). vLLM has no Mellum of its own,
so the block, attention and MLPs are transformers' classes with vLLM's linear layers, norms and attention layer
(``self_attn.attn``) inside, and the block's values carry the batch axis. The attention norms each head's queries
and keys before the rotary embedding; blocks ``layer_types`` marks ``sliding_attention`` attend over a window,
each kind with its own rotary base. ``mlp_layer_types`` gives a block a gated MLP or a mixture, whose forward vLLM
rewrites to call its fused runner (``experts``): the runner calls ``gate`` for the router's logits, keeps the top
``num_experts_per_tok`` of their softmax (renormalized where ``norm_topk_prob`` says) and runs and sums those
experts in one kernel; there is no shared expert, so the runner's output is the routed sum.
"""

from transformers.models.mellum.modeling_mellum import (
    MellumAttention,
    MellumDecoderLayer,
    MellumMLP,
    MellumSparseMoeBlock,
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
    """Mellum's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """Mellum's attention, sliding or global per block; its output is what the block adds."""


class Moe(transformers_moe.BackendFusedMoe):
    """Mellum's mixture: the router's logits at ``gate``, the experts in the runner, no shared expert."""


class Mlp(base.Mlp):
    """A dense block's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {MellumDecoderLayer: Layer, MellumAttention: Attention, MellumSparseMoeBlock: Moe, MellumMLP: Mlp}
