"""Falcon-H1 (`FalconH1ForCausalLM`): a Mamba-2 mixer and an attention side by side on every block, then a gated MLP.

Both sublayers read the one normed stream (native `mamba` is `linear_attn`, a
`StateSpace`); the block scales each output by its own multiplier and adds their
sum to the stream. With `n = input_layernorm(x)`:
`h = x + (ssm_out_multiplier * linear_attn(n) + attention_out_multiplier * self_attn(attention_in_multiplier * n));
out = h + mlp(post_attention_layernorm(h))` (native `feed_forward` and `pre_ff_layernorm`).
So the block has three contributions: `layer_input + linear_attn.attention_output +
self_attn.attention_output + mlp.mlp_output == layer_output`, equal up to rounding
because the block sums the two mixers before the residual add. Each
`attention_output` is the scaled product the block sums; the mixer's and the
attention's own values are unscaled. The attention reads the normed stream times
`attention_in_multiplier` and scales its keys by `key_multiplier` before the rotary
embedding, so the served keys are scaled. The mixer multiplies its input by
`ssm_in_multiplier` and its projection by a fixed per-channel vector (`mup_vector`),
and the MLP scales its gate projection and its output by `mlp_multipliers`. The
model multiplies the embedding output by `embedding_multiplier` and the head's output
by `lm_head_multiplier`, which `project_on_vocab` does too. The block returns a tuple.
"""

from transformers.models.falcon_h1.modeling_falcon_h1 import (
    FalconH1Attention,
    FalconH1DecoderLayer,
    FalconH1Mixer,
    FalconH1MLP,
)

from nnterp.components import Attention, HybridLayer, LogitLens, Mlp, StateSpace, scaled_output

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "mamba": "linear_attn",
    "feed_forward": "mlp",
    "pre_ff_layernorm": "post_attention_layernorm",
}


def _block_multiplier(name: str):
    def multiplier(envoy) -> float:
        return getattr(envoy.parent._module, name)

    multiplier.__name__ = name
    return multiplier


class Layer(HybridLayer):
    """Falcon-H1's block, holding both mixers; it returns `(hidden_states,)`."""

    returns_tuple = True


class Attention(Attention):
    """Falcon-H1's attention; the shared eager interface, its output scaled by the block."""

    attention_output = scaled_output(
        "What the attention adds to the residual stream, after the block's attention_out_multiplier",
        multiplier=_block_multiplier("attn_out_multiplier"),
    )


class StateSpace(StateSpace):
    """Falcon-H1's Mamba-2 mixer; Mamba-2's kernels, its output scaled by the block."""

    attention_output = scaled_output(
        "What the mixer adds to the residual stream, after the block's ssm_out_multiplier",
        multiplier=_block_multiplier("ssm_out_multiplier"),
    )


project_on_vocab = LogitLens(multiply="lm_head_multiplier")


ENVOYS = {FalconH1DecoderLayer: Layer, FalconH1Attention: Attention, FalconH1Mixer: StateSpace, FalconH1MLP: Mlp}
