"""OPT (`OPTForCausalLM`): a pre-norm block whose feed-forward path runs inline, with no `mlp` module.

The block flattens the stream to `[tokens, hidden_size]` around `fc1`, the
activation and `fc2`, so `layer_mid` and `mlp_norm_output` are `FlatResidual`.
Its MLP norm `final_layer_norm` keeps its native name: an alias would also bind on
the decoder's `final_layer_norm`, which is `model.norm`. With no `mlp` module there
is no `mlp.*` value and no `mlp_input`.
"""

from transformers.models.opt.modeling_opt import OPTAttention, OPTDecoderLayer

from nnterp.components import Attention, EProperty, FlatResidual, Layer, unavailable

RENAME = {
    "model.decoder.embed_tokens": "embed_tokens",
    "model.decoder.layers": "layers",
    "model.decoder.final_layer_norm": "norm",
    "self_attn_layer_norm": "input_layernorm",
    "self_attn.out_proj": "self_attn.o_proj",
}

_NO_MLP = "OPT's block runs fc1, the activation and fc2 inline: there is no mlp module to call"


class Layer(Layer):
    """OPT's block; the feed-forward path holds the stream flat over tokens."""

    @EProperty("final_layer_norm.input", description="The residual stream after the attention add, flat over tokens")
    def layer_mid(self, value) -> FlatResidual:
        return value

    @EProperty(
        "final_layer_norm.output", description="The normed stream entering the feed-forward path, flat over tokens"
    )
    def mlp_norm_output(self, value) -> FlatResidual:
        return value

    mlp_input = unavailable(_NO_MLP)


def intermediate_size(model) -> int:
    """The feed-forward width, `config.ffn_dim`."""
    return model.config.ffn_dim


ENVOYS = {OPTDecoderLayer: Layer, OPTAttention: Attention}
