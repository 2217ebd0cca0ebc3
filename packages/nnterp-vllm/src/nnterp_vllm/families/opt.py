"""OPT on vLLM (``vllm.model_executor.models.opt``).

h = x + self_attn(input_layernorm(x)); out = h + fc2(act(fc1(final_layer_norm(h)))), with OPT's attention norm
``self_attn_layer_norm`` renamed. The block is called with the stream alone and returns it, and runs its
feed-forward path inline, with no ``mlp`` module: there is no ``mlp.*`` value and no ``mlp_input``, and the
stream around the feed-forward path is served flat over tokens (``FlatResidual``), as on transformers. The MLP
norm keeps its native name ``final_layer_norm``, which the decoder's final norm (``model.norm``) shares.
"""

from vllm.model_executor.models.opt import OPTAttention, OPTDecoderLayer

from nnterp.components import FlatResidual, unavailable
from nnterp_vllm import components as base

RENAME = {
    "model.decoder.embed_tokens": "embed_tokens",
    "model.decoder.layers": "layers",
    "model.decoder.final_layer_norm": "norm",
    "self_attn_layer_norm": "input_layernorm",
    "self_attn.out_proj": "self_attn.o_proj",
}

_NO_MLP = "OPT's block runs fc1, the activation and fc2 inline: there is no mlp module to call"


class Layer(base.Layer):
    """OPT's block: ``forward(hidden_states) -> hidden_states``; the feed-forward path holds the stream flat."""

    @base.Rows("final_layer_norm.input", description="The residual stream after the attention add, flat over tokens")
    def layer_mid(self, rows) -> FlatResidual:
        return rows

    @base.Rows(
        "final_layer_norm.output", description="The normed stream entering the feed-forward path, flat over tokens"
    )
    def mlp_norm_output(self, rows) -> FlatResidual:
        return rows

    mlp_input = unavailable(_NO_MLP)


class Attention(base.Attention):
    """OPT's attention; its output is what the block adds, so the base holds."""


def intermediate_size(model) -> int:
    """The feed-forward width, ``config.ffn_dim``."""
    return model.config.ffn_dim


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {OPTDecoderLayer: Layer, OPTAttention: Attention}
