"""Longformer (`LongformerForMaskedLM`, model type `longformer`): BERT's post-LN encoder, sliding-window attention.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`) laid out as BERT is (`nnterp.components.bert_block`, the blocks
regrouped at load): it loads under `LongformerForMaskedLM` by default, or bare
(`LongformerModel`, `task="feature-extraction"`), with the same names; the block is
post-LN, with no norm before the attention and no final norm, and the head (`lm_head`)
is RoBERTa's, so the logit lens is `lm_head` alone on a stream.

The window padding: the trunk pads the ids to a multiple of the largest
`attention_window` before the embedding, so every block runs that many positions, and
it drops the padded ones after the last block. Every value whose sequence axis is
the stream's serves the user's positions only (the first ones): a read is the view
of those positions (an in-place edit lands in the model's tensor), an assignment has
the user's length and fills those positions, and the padded positions keep theirs.
The number of the user's positions is taken from each call of the root module.

The attention does its own arithmetic. Each query weighs the keys at most
`attention_window / 2` positions away on either side (`attention_window + 1` keys,
itself included), in a banded layout: one row of `attention_window + 1` scores per
query, not `[query, key]`. The scores (`q·k`, the queries divided by the square root
of the head width, plus `finfo.min` on padded keys) and the pattern are served
rebuilt on the keys: the band is put on its diagonals and every key outside it
holds minus infinity in the scores and zero in the pattern, which is exactly what
the softmax over the band gives. A write of either maps back onto the band and must
leave the keys outside it as they are read. Tokens marked in `global_attention_mask`
attend to and are attended by every token, through their own projections and a
separate softmax: a run with any reads the queries, keys and values of the window
(the global tokens' own are not served), `attention_head_outputs` after the global
tokens' rows are overwritten, and refuses the scores and the pattern.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.longformer.modeling_longformer import (
    LongformerAttention,
    LongformerEncoder,
    LongformerLayer,
    LongformerModel,
)

from nnterp.components import (
    AS_IS,
    HEADS_FIRST,
    MERGED_HEADS,
    NO_FINAL_NORM,
    Layer,
    Mlp,
    OwnAttention,
    PostLNLayer,
    always,
    first_tensor,
    lm_head_only,
    unavailable,
)
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertStack, FeedForward, regroup_block
from nnterp.components.mapped import held, mapped_value
from nnterp.components.own_attention import Shape
from nnterp.encoders import _CALL_IDS
from nnterp.standardized import StandardizedTransformer

ENCODER = True

RENAME = {
    "longformer.embeddings.word_embeddings": "embed_tokens",
    "longformer.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

_USER_POSITIONS = "_nnterp_user_positions"


def _record_user_positions(root: torch.nn.Module) -> None:
    """Keep, on every call of the root module, how many positions the caller passed (before the window padding).

    The ids the embedding takes are padded too, and the encoder keeps them to find the
    mask tokens (`nnterp.encoders.keep_call_ids`): they are narrowed to the caller's
    positions once the embedding has run. Registered once per module.
    """
    if getattr(root, "_nnterp_records_positions", False):
        return

    def record(_module: Any, args: tuple, kwargs: dict) -> None:
        given = kwargs.get("input_ids", args[0] if args else None)
        if given is None:
            given = kwargs.get("inputs_embeds")
        if isinstance(given, torch.Tensor):
            object.__setattr__(root, _USER_POSITIONS, given.shape[1])

    def narrow_kept_ids(_module: Any, args: tuple, output: Any) -> None:
        kept = getattr(root, _CALL_IDS, None)
        length = getattr(root, _USER_POSITIONS, None)
        if isinstance(kept, torch.Tensor) and length is not None and kept.shape[1] > length:
            object.__setattr__(root, _CALL_IDS, kept[:, :length])

    root.register_forward_pre_hook(record, with_kwargs=True)
    root.get_input_embeddings().register_forward_hook(narrow_kept_ids)
    root._nnterp_records_positions = True


def _regroup_blocks(trunk: torch.nn.Module) -> None:
    """BERT's regrouping of every block, the feed-forward path also called in place of the block's `ff_chunk`."""
    stack = trunk if "layer" in trunk._modules else trunk.encoder
    for block in stack.layer:
        regroup_block(block)
        # Longformer's block calls its feed-forward path `ff_chunk`; the instance dict answers before the class.
        block.__dict__["ff_chunk"] = block.feed_forward_chunk


class LongformerStack(BertStack):
    """`BertStack`, which also has the root module keep the caller's sequence length on every call."""

    regroup = staticmethod(_regroup_blocks)

    def __init__(self, module: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(module, *args, **kwargs)
        _record_user_positions(self.root._module)

    def _update(self, module: Any) -> None:
        super()._update(module)
        _record_user_positions(self.root._module)


def _user_length(host: Any) -> int:
    length = getattr(host.root._module, _USER_POSITIONS, None)
    if length is None:
        raise RuntimeError(f"{host.path}: the root module recorded no call, so the caller's positions are unknown")
    return length


def _user_positions(
    base: type,
    name: str,
    key: str,
    axis: int = 1,
    shape: Shape = AS_IS,
    select: Any = None,
    packed: bool = False,
    description: str | None = None,
) -> Any:
    """`base`'s value `name` at `key`, its sequence `axis` narrowed to the caller's positions, then mapped by `shape`.

    A write fills the caller's positions of a copy of the tensor held there; the
    window padding keeps its positions.
    """
    read, write = shape

    def read_users(host, value):
        value = first_tensor(value) if packed else value
        return read(host, value.narrow(axis, 0, _user_length(host)))

    def write_users(host, value):
        raw = held(host, key, select)
        current = first_tensor(raw) if packed else raw
        full = current.clone()
        full.narrow(axis, 0, _user_length(host)).copy_(write(host, value))
        return (full, *raw[1:]) if packed else full

    return mapped_value(base, name, key, read_users, write_users, select, always, description)


token_embeddings = _user_positions(StandardizedTransformer, "token_embeddings", "embed_tokens.output")


class Layer(PostLNLayer):
    """A Longformer block: post-LN, returning `(hidden_states,)`, run over the window-padded sequence."""

    returns_tuple = True

    def skip_with(self, stream: Any) -> Any:
        """`stream` as the block returns it; a stream of the caller's positions gets the block input's padding."""
        full = self.inputs[0][0]
        if stream.shape[1] != full.shape[1]:
            full = full.clone()
            full[:, : stream.shape[1]] = stream
            stream = full
        return (stream,)

    layer_input = _user_positions(Layer, "layer_input", "input")
    layer_mid = _user_positions(Layer, "layer_mid", "post_attention_layernorm.input")
    mlp_norm_output = _user_positions(Layer, "mlp_norm_output", "post_attention_layernorm.output")
    mlp_input = _user_positions(Layer, "mlp_input", "mlp.input")
    layer_output = _user_positions(Layer, "layer_output", "output", packed=True)


# -- the band ------------------------------------------------------------------------------


def _one_sided(attention: Any) -> int:
    return attention._module.self.one_sided_attn_window_size


def _band_index(attention: Any, n: int, device: Any) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The queries, band columns and keys of every band entry that falls on one of the caller's keys."""
    w = _one_sided(attention)
    queries = torch.arange(n, device=device)[:, None].expand(n, 2 * w + 1)
    columns = torch.arange(2 * w + 1, device=device)[None, :].expand(n, 2 * w + 1)
    keys = queries - w + columns
    inside = (keys >= 0) & (keys < n)
    return queries[inside], columns[inside], keys[inside]


def _check_local(attention: Any, band: torch.Tensor, name: str) -> None:
    width = 2 * _one_sided(attention) + 1
    if band.shape[-1] != width:
        raise ValueError(
            f"{attention.path}.{name}: this run has global attention ({band.shape[-1] - width} global tokens in "
            "global_attention_mask), whose tokens attend through their own projections and softmax, so no "
            "[query, key] pattern is served; run without global_attention_mask to read it"
        )


def _banded(name: str, fill: float, description: str) -> Any:
    """The pattern value `name` rebuilt on the keys from the band held at `key`, `fill` outside the window."""
    key = (
        "self.source.nn_functional_softmax_0.input"
        if name == "attention_scores"
        else ("self.source.nn_functional_dropout_0.output")
    )

    def read(host, band):
        _check_local(host, band, name)
        n = _user_length(host)
        queries, columns, keys = _band_index(host, n, band.device)
        heads_first = band.transpose(1, 2)
        full = band.new_full((band.shape[0], band.shape[2], n, n), fill)
        full[:, :, queries, keys] = heads_first[:, :, queries, columns]
        return full

    def write(host, value):
        band = held(host, key)
        _check_local(host, band, name)
        n = _user_length(host)
        queries, columns, keys = _band_index(host, n, band.device)
        outside = torch.ones(n, n, dtype=torch.bool, device=band.device)
        outside[queries, keys] = False
        if bool((value[:, :, outside] != fill).any()):
            raise ValueError(
                f"{host.path}.{name} was given a weight on a key outside the window of "
                f"{2 * _one_sided(host) + 1} keys around its query, which Longformer never computes; keep "
                f"{fill} there and edit the keys within the window"
            )
        edited = band.clone()
        edited.transpose(1, 2)[:, :, queries, columns] = value[:, :, queries, keys].to(band.dtype)
        return edited

    prop = mapped_value(OwnAttention, name, key, read, write, None, always, description)

    @prop.transform
    def _(host, view, raw):
        return write(host, view)

    return prop


class Attention(OwnAttention):
    """Longformer's attention: the inner `self` runs the windowed heads, `self_output` projects, adds and norms."""

    @property
    def num_heads(self) -> int:
        return self._module.self.num_heads

    @property
    def head_dim(self) -> int:
        return self._module.self.head_dim

    @property
    def attention_window(self) -> int:
        """How many keys each query sees, itself included: `attention_window / 2` on either side of it."""
        return 2 * _one_sided(self) + 1

    attention_queries = _user_positions(
        OwnAttention,
        "attention_queries",
        "self.source.transpose_0.output",
        shape=HEADS_FIRST,
        description="The queries entering the window, divided by the square root of the head width",
    )
    attention_keys = _user_positions(
        OwnAttention, "attention_keys", "self.source.transpose_1.output", shape=HEADS_FIRST
    )
    attention_values = _user_positions(
        OwnAttention, "attention_values", "self.source.transpose_2.output", shape=HEADS_FIRST
    )
    attention_scores = _banded(
        "attention_scores",
        float("-inf"),
        "The scaled scores entering the softmax over the window, padded keys at finfo.min, minus infinity past the "
        "window",
    )
    attention_probabilities = _banded(
        "attention_probabilities", 0.0, "The attention pattern the values are mixed with, zero past the window"
    )
    attention_head_outputs = _user_positions(
        OwnAttention,
        "attention_head_outputs",
        "self.source.attn_output_transpose_1.output",
        shape=MERGED_HEADS,
        description="The per-head outputs before the output projection, global tokens' rows their global attention's",
    )
    attention_premix = _user_positions(OwnAttention, "attention_premix", "o_proj.input", shape=MERGED_HEADS)
    attention_output = _user_positions(
        OwnAttention,
        "attention_output",
        "self_output.dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )


class LongformerMlp(BertMlp):
    """A BERT feed-forward path run over the window-padded sequence, served on the caller's positions."""

    mlp_output = _user_positions(
        Mlp,
        "mlp_output",
        "ffn_output.dropout.output",
        description="What the MLP adds to the residual stream, the term its own add takes",
    )
    mlp_activation = _user_positions(Mlp, "mlp_activation", "act_fn.output")
    mlp_neurons = _user_positions(Mlp, "mlp_neurons", "down_proj.input")


ENVOYS = {
    LongformerModel: LongformerStack,
    LongformerEncoder: LongformerStack,
    LongformerLayer: Layer,
    LongformerAttention: Attention,
    FeedForward: LongformerMlp,
}
