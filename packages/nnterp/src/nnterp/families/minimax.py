"""MiniMax (`MiniMaxForCausalLM`): a hybrid of lightning attention and softmax attention, with a mixture on every
block and adds that weigh both the stream and the contribution.

`config.layer_types` gives each block either a lightning attention mixer
(`linear_attention`, a `LightningAttention`) or a softmax attention
(`full_attention`), both under the native name `self_attn`; the block's envoy names
the mixer `linear_attn` on a lightning block (`block_aliases`), where `self_attn` is
then refused. The block norms its input and keeps the normed stream as the residual
(DeepNorm's weighting):
`h = a_1 * input_layernorm(x) + b_1 * mixer(input_layernorm(x));
out = a_2 * post_attention_layernorm(h) + b_2 * mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`, `(a_1, b_1)` the block's
`attn_alpha_factor` and `attn_beta_factor` (`linear_attn_*` or `full_attn_*` by
kind) and `(a_2, b_2)` its `mlp_alpha_factor` and `mlp_beta_factor`. A contribution
is the sublayer's output times its beta, as the add forms it, so `layer_mid` is
`a_1 * attention_norm_output + attention_output`, not `layer_input + attention_output`.

The lightning mixer (see `nnterp.components.lightning_attention`) decays each head's
`k^T v` state by a constant per head and writes every token in full; a prompt runs
it in blocks of `block_size` tokens, so the state per token needs
`block_per_token(model)`. The softmax
attention is Mistral's (grouped keys and values, rotary, an optional
`sliding_window`) on the shared interface. The mixture's router (`gate`) is a linear
layer whose softmax over every expert picks the top `num_experts_per_tok`,
renormalized over the chosen; the grouped experts run through transformers' experts
implementations, and there is no shared expert.
"""

from transformers.models.minimax.modeling_minimax import (
    MiniMaxAttention,
    MiniMaxDecoderLayer,
    MiniMaxLightningAttention,
    MiniMaxSparseMoeBlock,
)

from nnterp.components import Attention, HybridLayer, Moe, scaled_output
from nnterp.components.lightning_attention import LightningAttention

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def _attention_beta(envoy) -> float:
    """The factor the block holding `envoy` weighs its attention's or mixer's output by."""
    return envoy.parent._module.attn_beta_factor


def _mlp_beta(envoy) -> float:
    """The factor the block holding `envoy` weighs its mixture's output by."""
    return envoy.parent._module.mlp_beta_factor


class Layer(HybridLayer):
    """MiniMax's block: one mixer under the native `self_attn`, named `linear_attn` on a lightning block."""

    def block_aliases(self) -> dict[str, str]:
        if self._module.block_type == "linear_attention":
            return {"linear_attn": "self_attn"}
        return {}


class Attention(Attention):
    """MiniMax's softmax attention on the shared eager interface, its output weighed by the block's beta."""

    attention_output = scaled_output(
        "What the attention adds to the residual stream: its output times the block's attn_beta_factor",
        multiplier=_attention_beta,
    )


class LightningAttention(LightningAttention):
    """MiniMax's lightning mixer, its output weighed by the block's beta."""

    attention_output = scaled_output(
        "What the mixer adds to the residual stream: its output times the block's attn_beta_factor",
        multiplier=_attention_beta,
    )


class Moe(Moe):
    """MiniMax's mixture: a softmax router renormalized over the chosen experts (`gate`), grouped experts, its
    output weighed by the block's beta."""

    SCORING = "softmax"
    ROUTER = "gate"

    mlp_output = scaled_output(
        "What the mixture adds to the residual stream: its output times the block's mlp_beta_factor",
        multiplier=_mlp_beta,
    )


ENVOYS = {
    MiniMaxDecoderLayer: Layer,
    MiniMaxAttention: Attention,
    MiniMaxLightningAttention: LightningAttention,
    MiniMaxSparseMoeBlock: Moe,
}
