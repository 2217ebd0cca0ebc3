"""XGLM (`XGLMForCausalLM`): a pre-norm block with an inline feed-forward path and its own attention arithmetic.

`h = x + self_attn(input_layernorm(x)); out = h + fc2(act(fc1(post_attention_layernorm(h))))`

The block runs `fc1`, the activation and `fc2` itself, with no `mlp` module: the
feed-forward contribution is the block's own `mlp_output`, `fc2`'s output, and
there is no `mlp_input`. `final_layer_norm` is the block's MLP norm, aliased
`post_attention_layernorm` (the decoder's final norm is `layer_norm`). The
attention never calls the shared interface: it folds batch and heads into one axis
for `torch.bmm`, so every interior value is read there and served with the heads
unfolded. The queries are scaled by `head_dim ** -0.5` in the projection, before
they enter the product; the scores enter the softmax masked and clamped at the
dtype's minimum. The embedding scales its output by `sqrt(d_model)`.
"""

import torch
from transformers.models.xglm.modeling_xglm import XGLMAttention, XGLMDecoderLayer

from nnterp.components import (
    FOLDED_HEADS,
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    EProperty,
    Layer,
    OwnAttention,
    Residual,
    chain,
    own_value,
    unavailable,
)

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.layer_norm": "norm",
    "self_attn_layer_norm": "input_layernorm",
    "final_layer_norm": "post_attention_layernorm",
    "self_attn.out_proj": "self_attn.o_proj",
}

_NO_MLP = "the block runs fc1, the activation and fc2 inline: there is no mlp module to call"


def _scores_key(attention) -> str:
    """The softmax the forward runs: an upcast one on float16 weights, the plain one otherwise."""
    upcast = attention._module.q_proj.weight.dtype == torch.float16
    return f"source.nn_functional_softmax_{0 if upcast else 1}.input"


class Layer(Layer):
    """A block whose feed-forward path runs inline (XGLM, BioGPT): the contribution is `fc2`'s output."""

    mlp_input = unavailable(_NO_MLP)

    @EProperty("fc2.output", description="What the feed-forward path adds to the residual stream: fc2's output")
    def mlp_output(self, value) -> Residual:
        return value


class Attention(OwnAttention):
    """XGLM's attention, read at its two batched products and its softmax, heads unfolded."""

    attention_queries = own_value("attention_queries", "source.torch_bmm_0.inputs", FOLDED_HEADS, select=0)
    attention_keys = own_value(
        "attention_keys", "source.torch_bmm_0.inputs", chain(FOLDED_HEADS, KEYS_TRANSPOSED), select=1
    )
    attention_values = own_value("attention_values", "source.torch_bmm_1.inputs", FOLDED_HEADS, select=1)
    attention_scores = own_value("attention_scores", _scores_key, FOLDED_HEADS)
    attention_probabilities = own_value(
        "attention_probabilities", "source.nn_functional_dropout_0.output", FOLDED_HEADS
    )
    attention_head_outputs = own_value(
        "attention_head_outputs", "source.torch_bmm_1.output", chain(FOLDED_HEADS, HEADS_FIRST)
    )


def intermediate_size(model) -> int:
    """The feed-forward width, `config.ffn_dim`."""
    return model.config.ffn_dim


ENVOYS = {XGLMDecoderLayer: Layer, XGLMAttention: Attention}
