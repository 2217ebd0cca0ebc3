"""OLMo-Hybrid (`OlmoHybridForCausalLM`): pre-norm gated DeltaNet blocks beside OLMo 2's post-norm attention blocks.

`config.layer_types` gives each block one of two classes, each with its own order:

- `linear_attention`, a gated DeltaNet mixer (`linear_attn`, `LinearAttention`) in
  Llama's order:
  `h = x + linear_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`;
- `full_attention`, OLMo 2's post-norm block, with no norm before either sublayer:
  `h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h))`.

The two classes spell `post_attention_layernorm` for different norms, so each gets
its own block envoy: on an attention block the contributions are the post-norms'
outputs, `layer_mid` is what the MLP reads, and `attention_norm_output` and
`mlp_norm_output` are missing with the norm the block lacks named. One MLP class
serves both, and its `mlp_output` is read where its block adds it. The mixer
projects queries, keys and values separately (no fused projection), gates its
output through its own `g_proj`, and doubles its betas when
`linear_allow_neg_eigval` is set, so they range over (0, 2). The attention norms
its queries and keys over all heads at once. The mixer's state per token needs
`nnterp.route_kernels(model.family, "torch")` before the first trace.
"""

from transformers.models.olmo_hybrid.modeling_olmo_hybrid import (
    OlmoHybridAttention,
    OlmoHybridAttentionDecoderLayer,
    OlmoHybridGatedDeltaNet,
    OlmoHybridLinearAttentionDecoderLayer,
    OlmoHybridMLP,
)

from nnterp.components import EProperty, HybridLayer, LinearAttention, Mlp, Residual, SandwichAttention, always
from nnterp.components.reasons import needs_child

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: The norm a sandwich block puts before its MLP, which OLMo-Hybrid's post-norm attention block lacks.
_PRE_MLP_NORM = "pre_feedforward_layernorm"
#: The norm after the MLP, on the attention blocks only.
_POST_MLP_NORM = "post_feedforward_layernorm"


class AttentionLayer(HybridLayer):
    """OLMo-Hybrid's attention block, post-norm: the sublayers read the stream, and their outputs are normed."""

    @EProperty("mlp.input", description="The residual stream after the attention add")
    def layer_mid(self, value) -> Residual:
        return value

    @EProperty(
        f"{_PRE_MLP_NORM}.output",
        description="The normed stream entering the MLP",
        unavailable=needs_child(_PRE_MLP_NORM),
    )
    def mlp_norm_output(self, value) -> Residual:
        return value


def _contribution_key(envoy) -> str:
    if hasattr(envoy.parent._module, _POST_MLP_NORM):
        return f"../{_POST_MLP_NORM}.output"
    return "output"


class Mlp(Mlp):
    """OLMo-Hybrid's gated MLP: its output as it is on a DeltaNet block, post-normed on an attention block."""

    @EProperty(
        _contribution_key,
        unavailable=always,
        description=f"What the MLP adds to the residual stream: on an attention block, the output of {_POST_MLP_NORM}",
    )
    def mlp_output(self, value) -> Residual:
        return value


ENVOYS = {
    OlmoHybridLinearAttentionDecoderLayer: HybridLayer,
    OlmoHybridAttentionDecoderLayer: AttentionLayer,
    OlmoHybridAttention: SandwichAttention,
    OlmoHybridGatedDeltaNet: LinearAttention,
    OlmoHybridMLP: Mlp,
}
