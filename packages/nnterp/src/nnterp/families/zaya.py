"""ZAYA (`ZayaForCausalLM`): Llama's order with a convolutional attention, a mixture on every block, and adds that
gate both the stream and the contribution per channel.

`h = g_a(x) + (self_attn(input_layernorm(x)) + b_a) * s_a;
out = g_m(h) + (mlp(post_attention_layernorm(h)) + b_m) * s_m`, with `g(x) = (x + residual_bias) * residual_scale`.

Each add is a module of the block (`post_attention_residual_scale`,
`post_mlp_residual_scale`) holding a bias and a per-channel scale for each of its two
terms, so a contribution is the sublayer's output plus its bias, times its scale, as
the add forms it, and the stream enters the add gated: `layer_mid` is not
`layer_input + attention_output`. The model adds a bias to the embedding output and
scales it per channel before the first block, and keeps the stream in float32. The
attention computes its queries and keys with two causal convolutions over the
projected tokens plus a residual path, takes half of each value head from the
previous token, normalizes queries and keys, rotates part of each head and calls the
shared eager interface; blocks marked `hybrid_sliding` attend within
`sliding_window`. The mixture's router (`gate`) projects the stream down, adds the
previous block's router state (scaled), runs a small MLP to one logit per expert
plus a skip class that computes nothing, and picks the top `top_k` (one) by the
softmax plus balancing biases; a token sent to the skip class would reach the
experts as expert 0 with weight 0, but transformers' weight init sets the skip
class's bias to -1 at every load, and a probability plus -1 never wins. The weights are the softmax probabilities, not renormalized;
there is no shared expert. The block returns its stream with the router state.
"""

from transformers.models.zaya.modeling_zaya import (
    ZayaAttention,
    ZayaDecoderLayer,
    ZayaResidualScaling,
    ZayaSparseMoeBlock,
)

from nnterp.components import Attention, EProperty, Layer, Moe, Residual, Standard, always

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: The binding of the add's forward that holds the gated contribution.
_GATED = "hidden_states_0"


class Layer(Layer):
    """ZAYA's block; Llama's order, returning `(stream, router state)`."""

    returns_tuple = True

    def skip_with(self, stream):
        """`stream` with the router state this block received, handed on to the next block's router unchanged."""
        args, kwargs = self.inputs
        state = args[1] if len(args) > 1 else kwargs.get("prev_router_hidden_states")
        return stream, state


class GatedAdd(Standard):
    """One of the block's adds: its forward is instrumented, so the gated contribution it forms can be read."""

    sourced = True


class Attention(Attention):
    """ZAYA's convolutional attention; the shared eager interface, the contribution gated by the block's add."""

    @EProperty(
        f"../post_attention_residual_scale.source.{_GATED}.output",
        unavailable=always,
        description="What the attention adds to the residual stream: its output plus the add's bias, times the "
        "add's per-channel scale",
    )
    def attention_output(self, value) -> Residual:
        return value


class Moe(Moe):
    """ZAYA's mixture: a router MLP with a skip class (`gate`), grouped experts, no shared expert."""

    SCORING = "softmax"
    ROUTER = "gate"
    LOGITS = "self_router_mlp_0"

    @property
    def num_experts(self) -> int:
        """The router's classes: the routed experts and the skip class, which runs no expert."""
        return self.experts._module.num_experts + 1

    @EProperty(
        f"../post_mlp_residual_scale.source.{_GATED}.output",
        unavailable=always,
        description="What the mixture adds to the residual stream: its output plus the add's bias, times the add's "
        "per-channel scale",
    )
    def mlp_output(self, value) -> Residual:
        return value


ENVOYS = {
    ZayaDecoderLayer: Layer,
    ZayaAttention: Attention,
    ZayaResidualScaling: GatedAdd,
    ZayaSparseMoeBlock: Moe,
}
