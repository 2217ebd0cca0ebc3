"""Phi (Phi-1 to Phi-2) on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x)). A parallel block: one LayerNorm feeds both
sublayers, so ``mlp_norm_output`` is the attention's normed input and ``layer_mid`` is unavailable. The block
passes both contributions through one ``resid_dropout``, which is the identity in inference, so they are the
sublayers' outputs. The attention turns part of each head with the rotary embedding, norms the queries and keys
where ``qk_layernorm`` is set, and projects out with ``dense``; the MLP is ``fc1``, ``activation_fn``, ``fc2``.
vLLM has no Phi of its own, so the modules are transformers' classes with vLLM's linear layers and attention
layer (``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.phi.modeling_phi import PhiAttention, PhiDecoderLayer, PhiMLP

from nnterp_vllm.components import parallel
from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "self_attn.dense": "self_attn.o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}


class Layer(parallel.BackendParallelLayer):
    """Phi's parallel block; the parallel base holds."""


class Attention(base.Attention):
    """Phi's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Phi's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {PhiDecoderLayer: Layer, PhiAttention: Attention, PhiMLP: Mlp}
