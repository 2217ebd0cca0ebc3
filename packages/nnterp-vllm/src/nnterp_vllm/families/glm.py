"""GLM on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). Llama's block with a partial
rotary embedding over interleaved pairs, and an MLP that computes the gate and the up projection in one
``gate_up_proj`` (a gated MLP, so ``mlp_activation`` is unavailable). vLLM has no GLM of its own, so the modules
are transformers' classes with vLLM's linear layers and attention layer (``self_attn.attn``) inside, and the values
carry the batch axis.
"""

from transformers.models.glm.modeling_glm import GlmAttention, GlmDecoderLayer, GlmMLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "activation_fn": "act_fn",
}


class Layer(base.Layer):
    """GLM's block; Llama's order, so the base holds."""


class Attention(base.Attention):
    """GLM's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """GLM's gated MLP (``gate_up_proj``); its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GlmDecoderLayer: Layer, GlmAttention: Attention, GlmMLP: Mlp}
