"""Mllama's text model (`MllamaForCausalLM`, Llama 3.2 Vision): Llama's blocks with cross-attention blocks among them.

A self-attention block is Llama's:
`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.
A cross-attention block (at the config's `cross_attention_layers`) reads the image:
`h = x + tanh(cross_attn_attn_gate) * cross_attn(input_layernorm(x), image);
out = h + tanh(cross_attn_mlp_gate) * mlp(post_attention_layernorm(h))`, its MLP's
output zeroed on text rows that see no image.

The text model skips a cross-attention block when no image's states reach it, which is
every run of a default-task load (`MllamaForCausalLM`, the text-only class transformers
builds from the wrapper checkpoint) and every text-only run of the wrapper. No value of
a cross-attention block is served yet: each of the block's values and of its MLP's is
unavailable with `CROSS_BLOCK`, and it has no `self_attn`.

The Mllama wrapper (`mllama`) is served by `nnterp.families.mllama`.
"""

from transformers.models.mllama.modeling_mllama import (
    MllamaCrossAttentionDecoderLayer,
    MllamaSelfAttentionDecoderLayer,
    MllamaTextMLP,
    MllamaTextSelfAttention,
)

from nnterp.components import Attention, EProperty, Layer, Mlp, Neurons, Residual, unavailable
from nnterp.components.reasons import needs_child
from nnterp.components.standard import first_tensor, rewrap

#: Why a cross-attention block serves nothing.
_CROSS_BLOCK = (
    "a cross-attention block: it runs only when an image's states reach it (never on a text-only run) "
    "and nnterp serves no value of it yet"
)

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def _on_cross_block(mlp) -> str | None:
    """`CROSS_BLOCK` where the MLP is a cross-attention block's."""
    return _CROSS_BLOCK if isinstance(mlp.parent._module, MllamaCrossAttentionDecoderLayer) else None


def _unless_cross_block(name: str):
    def predicate(mlp) -> str | None:
        return _on_cross_block(mlp) or needs_child(name, "mlp")(mlp)

    predicate.__name__ = f"needs_{name}_off_a_cross_block"
    return predicate


class CrossAttentionLayer(Layer):
    """A cross-attention block: skipped without an image, and no value served."""

    layer_input = unavailable(_CROSS_BLOCK)
    attention_norm_output = unavailable(_CROSS_BLOCK)
    layer_mid = unavailable(_CROSS_BLOCK)
    mlp_norm_output = unavailable(_CROSS_BLOCK)
    mlp_input = unavailable(_CROSS_BLOCK)
    layer_output = unavailable(_CROSS_BLOCK)


class Mlp(Mlp):
    """The gated MLP of either block kind; a cross-attention block's serves nothing."""

    @EProperty("output", description="What the MLP adds to the residual stream", unavailable=_on_cross_block)
    def mlp_output(self, value) -> Residual:
        return first_tensor(value)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return rewrap(self, value)

    @EProperty(
        "act_fn.output", description="The activation function's output", unavailable=_unless_cross_block("act_fn")
    )
    def mlp_activation(self, value) -> Neurons:
        return value

    @EProperty(
        "down_proj.input",
        description="What the down projection sums, one value per neuron",
        unavailable=_unless_cross_block("down_proj"),
    )
    def mlp_neurons(self, value) -> Neurons:
        return value


ENVOYS = {
    MllamaSelfAttentionDecoderLayer: Layer,
    MllamaCrossAttentionDecoderLayer: CrossAttentionLayer,
    MllamaTextSelfAttention: Attention,
    MllamaTextMLP: Mlp,
}
