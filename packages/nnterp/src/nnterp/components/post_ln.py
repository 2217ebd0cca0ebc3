"""Post-LN blocks: each norm follows a residual add, on the stream itself (GPT-1, XLNet, the original Transformer).

A post-LN block computes
`h = post_attention_layernorm(x + self_attn(x)); out = output_norm(h + mlp(h))`.
The norm sits on the trunk, not on a branch, so no sum of the block input and two
terms gives `out`: the stream is re-normed after each add. The values keep the
meaning they have on a pre-norm block wherever that meaning exists:

- `attention_output` and `mlp_output` are what each sublayer adds, the tensor
  entering its add;
- `layer_mid` is the stream right after the attention add, so
  `layer_mid == layer_input + attention_output` holds bit for bit;
- `mlp_norm_output` is the norm of `layer_mid`, which the MLP reads and which is
  also the stream the MLP's add starts from;
- `attention_norm_output` is unavailable, since the attention reads the block input.

The block's identity takes the post-LN form
`layer_output == output_norm(mlp_norm_output + mlp_output)`, bit for bit, and its
first half `layer_mid == layer_input + attention_output`. A post-LN model has no
final norm either: the last block's output norm is the last norm, and the head
reads the last `layer_output` directly (`final_norm_output` is declared
unavailable with `NO_FINAL_NORM`).
"""

from __future__ import annotations

from .eproperty import unavailable
from .layer import Layer
from .logit_lens import LogitLens

POST_LN_ATTENTION = (
    "a post-LN block: its norms follow the residual adds, and the attention reads the block input itself"
)
NO_FINAL_NORM = (
    "a post-LN model: the last block's own output norm is the last norm, and the head reads its layer_output"
)


#: The logit lens of a model whose head reads the last block's output directly.
lm_head_only = LogitLens(norm=False)


class PostLNLayer(Layer):
    """A post-LN block: the norm after the attention add is `post_attention_layernorm`, and the attention reads `x`."""

    attention_norm_output = unavailable(POST_LN_ATTENTION)
