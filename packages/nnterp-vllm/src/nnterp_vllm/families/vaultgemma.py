"""VaultGemma on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(pre_feedforward_layernorm(h)): Gemma 2's block without the
post-norms, the MLP's norm keeping Gemma 2's name. vLLM has no VaultGemma of its own, so the modules are
transformers' classes with vLLM's linear layers and attention layer (``self_attn.attn``) inside, and the values
carry the batch axis. vLLM's attention layer softcaps the scores, and blocks alternate sliding-window and global
attention.
"""

from transformers.models.vaultgemma.modeling_vaultgemma import (
    VaultGemmaAttention,
    VaultGemmaDecoderLayer,
    VaultGemmaMLP,
)

from nnterp.components import Residual, needs_child
from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.Layer):
    """VaultGemma's block; the stream between the sublayers enters ``pre_feedforward_layernorm``."""

    @base.Batched(
        "pre_feedforward_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=needs_child("pre_feedforward_layernorm"),
    )
    def layer_mid(self, rows) -> Residual:
        return rows

    @base.Batched(
        "pre_feedforward_layernorm.output",
        description="The normed stream entering the MLP",
        unavailable=needs_child("pre_feedforward_layernorm"),
    )
    def mlp_norm_output(self, rows) -> Residual:
        return rows


class Attention(base.Attention):
    """VaultGemma's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """VaultGemma's gated MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {VaultGemmaDecoderLayer: Layer, VaultGemmaAttention: Attention, VaultGemmaMLP: Mlp}
