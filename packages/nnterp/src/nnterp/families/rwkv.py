"""RWKV-4 (`RwkvForCausalLM`): every block a time-mix (the recurrent mixer) and a channel-mix (the MLP).

`out = h + mlp(post_attention_layernorm(h))` with `h = x + linear_attn(input_layernorm(x))`,
the norms native `ln1` and `ln2`. The time-mix is `linear_attn`, a `TimeMix` (native
`attention`), since it is a recurrent mixer and not a softmax attention: no block has a
`self_attn`. The channel-mix is `mlp`, a `ChannelMix` (native `feed_forward`, its `key`
and `value` projections aliased `up_proj` and `down_proj`). Both read the current and
the previous token's normed stream (the token shift), so each carries the last token's
input between calls besides the time-mix's wkv state. Quirks:

- Block 0 norms the embeddings itself (native `pre_ln`) before anything else, so its
  `layer_input` is `pre_ln`'s output, the stream the block adds to; the block's raw
  input is the embedding output.
- Every `rescale_every` blocks the model halves the stream between one block and the
  next (and divides the later blocks' output projections by the matching power of
  two at inference), so after such a block the next `layer_input` is half the
  `layer_output`.
- The time-mix's output projection is native `output`, which nnsight files as
  `E_output`, since every envoy serves `.output` itself.
"""

from typing import Any

from transformers.models.rwkv.modeling_rwkv import RwkvBlock, RwkvFeedForward, RwkvSelfAttention

from nnterp.components import EProperty, HybridLayer, Residual, always
from nnterp.components.rwkv import ChannelMix, TimeMix

RENAME = {
    "rwkv.embeddings": "embed_tokens",
    "rwkv.blocks": "layers",
    "rwkv.ln_out": "norm",
    "head": "lm_head",
    "attention": "linear_attn",
    "feed_forward": "mlp",
    "feed_forward.key": "feed_forward.up_proj",
    "feed_forward.value": "feed_forward.down_proj",
    "ln1": "input_layernorm",
    "ln2": "post_attention_layernorm",
}


def _stream_in(envoy: Any) -> str:
    """Where the stream the block adds to is read: after block 0's embedding norm, else the block's input."""
    return "pre_ln.output" if getattr(envoy._module, "pre_ln", None) is not None else "input"


class Layer(HybridLayer):
    """RWKV's block, which returns `(hidden, state, attentions)`; block 0 norms its input first."""

    returns_tuple = True

    def skip_with(self, stream):
        """`stream` with the model's state as the block received it, for the next block to update."""
        _, kwargs = self.inputs
        return stream, kwargs.get("state"), None

    @EProperty(
        _stream_in,
        description="The residual stream entering the block, after block 0's embedding norm",
        unavailable=always,
    )
    def layer_input(self, value) -> Residual:
        return value


ENVOYS = {RwkvBlock: Layer, RwkvSelfAttention: TimeMix, RwkvFeedForward: ChannelMix}
