"""Persimmon on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + dropout(mlp(post_attention_layernorm(h))). A sequential
LayerNorm block: the attention projects queries, keys and values in one ``query_key_value``, norms them per head
(``qk_layernorm``), turns part of each head with the rotary embedding and projects out with ``dense``; the MLP is
``dense_h_to_4h``, ``act``, ``dense_4h_to_h``, and its contribution is read after the block's ``dropout``. vLLM
dropped its own Persimmon, so the modules are transformers' classes with vLLM's linear layers and attention layer
(``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.persimmon.modeling_persimmon import (
    PersimmonAttention,
    PersimmonDecoderLayer,
    PersimmonMLP,
)

from nnterp.components import Residual
from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "self_attn.dense": "self_attn.o_proj",
    "dense_4h_to_h": "down_proj",
    "act": "act_fn",
}


class Layer(base.Layer):
    """Persimmon's sequential block; Llama's norm names, so the base holds."""


class Attention(base.Attention):
    """Persimmon's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """Persimmon's plain MLP; the contribution is read after the block's dropout."""

    @base.Batched("../dropout.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {PersimmonDecoderLayer: Layer, PersimmonAttention: Attention, PersimmonMLP: Mlp}
