"""XLNet (`XLNetLMHeadModel`, model type `xlnet`): post-LN blocks on a sequence-first stream, relative attention.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.layer_norm(h + mlp(h))`

The trunk transposes the ids to `[seq, batch]` and every block holds the stream
as `[seq, batch, hidden]`. Every value is served batch-first, in the standard
layout: a read transposes the tensor the forward holds, a write transposes it back,
so an assigned tensor has the standard shape and lands where the forward reads it.

Each sublayer adds the residual and norms inside its own forward: the attention
returns `layer_norm(h + attn)` (its `layer_norm`, aliased `post_attention_layernorm`
on the block) and the MLP returns `layer_norm(out + inp)` (its own `layer_norm`, the
block's output norm). So `attention_output` and `mlp_output` are read where each
sublayer's add takes its term, and the identity takes the post-LN form:
`layer_mid == layer_input + attention_output` and
`layer_output == mlp.layer_norm(mlp_norm_output + mlp_output)`, both bit for bit. No
norm feeds the attention and there is no final norm: the head (`lm_loss`, aliased
`lm_head`) reads the last block's output, transposed back to batch-first.

Two streams: a block takes the content stream `h` and the query stream `g` and
returns both, `(h, g)`. A forward without `target_mapping` (every trace of the
causal LM) runs one stream, `g` is `None`, and the values are those of `h`, read in
the one-stream branch of the attention. Generation runs the two-stream forward
(it passes `perm_mask` and `target_mapping` and the head reads `g`): there the
block boundaries still serve `h`, while the attention's interior and its
contribution, read in the one-stream branch, are not reached, and the MLP runs on
`g` before `h`, so its values are not `h`'s; a block written or skipped keeps `g`
as `None`, so skipping blocks is for the one-stream forward.

The attention does its own arithmetic with relative positions: the queries, keys
and values are per-head einsums of parameters (`q`, `k`, `v`; no projection
modules), the scores sum a content term (queries plus `r_w_bias` against the keys),
a position term (queries plus `r_r_bias` against the projected relative encoding,
shifted) and, with segments, a segment term, are scaled by the head width's
inverse square root, and have 1e30 subtracted where masked; the heads are merged by
an einsum with the parameter `o`. The model keeps no cache: with `use_mems_eval`
off, each generation step passes the whole sequence plus a dummy id 0 appended
(`RESENDS_IDS`).
"""

from __future__ import annotations

from typing import Any

from transformers.models.xlnet.modeling_xlnet import XLNetFeedForward, XLNetLayer, XLNetRelativeAttention

from nnterp.components import (
    NO_FINAL_NORM,
    EProperty,
    Mlp,
    OwnAttention,
    PostLNLayer,
    always,
    first_tensor,
    lm_head_only,
    rewrap,
    unavailable,
)
from nnterp.components.mapped import mapped_value
from nnterp.components.own_attention import Shape
from nnterp.standardized import StandardizedTransformer

RENAME = {
    "transformer.word_embedding": "embed_tokens",
    "transformer.layer": "layers",
    "lm_loss": "lm_head",
    "rel_attn": "self_attn",
    "rel_attn.layer_norm": "post_attention_layernorm",
    "ff": "mlp",
    "layer_1": "up_proj",
    "layer_2": "down_proj",
    "activation_function": "act_fn",
}

#: Generation passes every id at every step (the dummy id after them), so the mask a step takes is as long as its ids.
RESENDS_IDS = True

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

#: The one-stream branch's calls in the attention's forward (the two-stream branch's come first in the source).
_CORE = "source.self_rel_attn_core_3"
_POST = "source.self_post_attention_2"


def _swap(host: Any, value: Any) -> Any:
    return value.transpose(0, 1)


#: `[seq, batch, ...]` <-> `[batch, seq, ...]`.
_SEQ_FIRST: Shape = (_swap, _swap)
#: Per-head tensors `[seq, batch, heads, dim]` <-> `[batch, heads, seq, dim]`.
_SEQ_FIRST_HEADS: Shape = (
    lambda host, value: value.permute(1, 2, 0, 3),
    lambda host, value: value.permute(2, 0, 1, 3),
)


def _served(
    base: type,
    name: str,
    key: str,
    shape: Shape = _SEQ_FIRST,
    select: Any = None,
    unavailable: Any = None,
    description: str | None = None,
    packed: bool = False,
) -> EProperty:
    """`base`'s value `name`, read at `key` where the forward holds it in another layout, mapped by `shape`.

    `packed`: the location is a module's output tuple whose first element is the value.
    """
    read, write = shape

    def read_standard(host, value):
        return read(host, first_tensor(value) if packed else value)

    def write_held(host, value):
        return rewrap(host, write(host, value)) if packed else write(host, value)

    return mapped_value(base, name, key, read_standard, write_held, select, unavailable, description)


# The embedding runs on the transposed ids, so its output is sequence-first too.
token_embeddings = _served(StandardizedTransformer, "token_embeddings", "embed_tokens.output")


class Layer(PostLNLayer):
    """XLNet's block: `rel_attn` then `ff`, each adding and norming inside; it returns `(h, g)`."""

    returns_tuple = True

    def skip_with(self, stream: Any) -> Any:
        """`stream` packed as the block returns it: the content stream sequence-first, and no query stream."""
        return (stream.transpose(0, 1), None)

    layer_input = _served(PostLNLayer, "layer_input", "input")
    layer_mid = _served(PostLNLayer, "layer_mid", "post_attention_layernorm.input")
    mlp_norm_output = _served(PostLNLayer, "mlp_norm_output", "post_attention_layernorm.output")
    mlp_input = _served(PostLNLayer, "mlp_input", "mlp.input")
    layer_output = _served(PostLNLayer, "layer_output", "output", packed=True)


class Attention(OwnAttention):
    """XLNet's relative attention, read in the one-stream branch of its forward and inside `rel_attn_core`."""

    attention_queries = _served(
        OwnAttention,
        "attention_queries",
        f"{_CORE}.inputs",
        _SEQ_FIRST_HEADS,
        select=0,
        unavailable=always,
        description="The content queries entering attention, before the content and position biases are added",
    )
    attention_keys = _served(OwnAttention, "attention_keys", f"{_CORE}.inputs", _SEQ_FIRST_HEADS, 1, always)
    attention_values = _served(OwnAttention, "attention_values", f"{_CORE}.inputs", _SEQ_FIRST_HEADS, 2, always)
    attention_scores = _served(
        OwnAttention,
        "attention_scores",
        f"{_CORE}.source.nn_functional_softmax_0.input",
        (lambda host, value: value, lambda host, value: value),
        unavailable=always,
        description="The scaled content, position and segment scores entering the softmax, 1e30 subtracted where masked",
    )
    attention_probabilities = _served(
        OwnAttention,
        "attention_probabilities",
        f"{_CORE}.source.self_dropout_0.output",
        (lambda host, value: value, lambda host, value: value),
        unavailable=always,
    )
    attention_head_outputs = _served(
        OwnAttention, "attention_head_outputs", f"{_CORE}.output", _SEQ_FIRST, unavailable=always
    )
    attention_premix = _served(
        OwnAttention,
        "attention_premix",
        f"{_POST}.inputs",
        _SEQ_FIRST,
        select=1,
        unavailable=always,
        description="Every head's output side by side, as the einsum with the output parameter `o` takes it",
    )
    attention_output = _served(
        OwnAttention,
        "attention_output",
        f"{_POST}.source.self_dropout_0.output",
        unavailable=always,
        description="What the attention adds to the residual stream, the term its own add takes",
    )

    @property
    def num_heads(self) -> int:
        return self._module.n_head

    @property
    def head_dim(self) -> int:
        return self._module.d_head


class Mlp(Mlp):
    """XLNet's MLP: `layer_1`, the activation, `layer_2`, then its own add and `layer_norm`."""

    mlp_output = _served(
        Mlp,
        "mlp_output",
        "source.self_dropout_1.output",
        unavailable=always,
        description="What the MLP adds to the residual stream, the term its own add takes",
    )
    mlp_activation = _served(Mlp, "mlp_activation", "act_fn.output")
    mlp_neurons = _served(Mlp, "mlp_neurons", "down_proj.input")


def intermediate_size(model) -> int:
    """The MLP width, `d_inner` in the config."""
    return model.config.d_inner


ENVOYS = {XLNetLayer: Layer, XLNetRelativeAttention: Attention, XLNetFeedForward: Mlp}
