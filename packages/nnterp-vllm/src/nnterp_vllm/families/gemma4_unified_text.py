"""Gemma 4 unified, text only, on vLLM's transformers backend (``TransformersForCausalLM``, transformers' modules).

h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = layer_scalar * (h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))).
vLLM has no Gemma 4 unified of its own, so the block, attention and MLP are transformers' classes with vLLM's
linear layers, norms and attention layer (``self_attn.attn``) inside, and the values carry the batch axis. The
contributions are the post-norms' outputs, the stream between the sublayers enters ``pre_feedforward_layernorm``,
and the block multiplies its sum by its ``layer_scalar`` buffer. The attention norms its queries, keys and values
per head and scales the scores by one; the head width is the block kind's. The embedding module scales by
``sqrt(hidden_size)`` itself, and the logits processor softcaps where the config sets
``final_logit_softcapping``.
"""

from transformers.models.gemma4_unified.modeling_gemma4_unified import (
    Gemma4UnifiedTextAttention,
    Gemma4UnifiedTextDecoderLayer,
    Gemma4UnifiedTextMLP,
)

from nnterp_vllm.components import post_norm
from nnterp_vllm.families import vaultgemma

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(vaultgemma.Layer):
    """Gemma 4 unified's sandwich block: the stream between the sublayers enters the MLP's pre-norm, as VaultGemma's."""


class Attention(post_norm.BackendPostNormAttention):
    """Gemma 4 unified's attention; what the block adds is its post-norm's output."""


class Mlp(post_norm.BackendPostNormMlp):
    """Gemma 4 unified's gated MLP; what the block adds is its post-norm's output."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {Gemma4UnifiedTextDecoderLayer: Layer, Gemma4UnifiedTextAttention: Attention, Gemma4UnifiedTextMLP: Mlp}
