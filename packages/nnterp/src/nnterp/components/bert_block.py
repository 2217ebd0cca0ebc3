"""BERT's block, shared by the encoders built on it (BERT, RoBERTa, ELECTRA, ...) and GIT's text stack.

`h = attention.output.LayerNorm(x + attention(x)); out = output.LayerNorm(h + ffn(h))`

A BERT block holds its attention as two modules, the inner `self` (the heads) and
`output` (the projection, its dropout, then the add and the norm), and its
feed-forward path as two more the block calls from `feed_forward_chunk`,
`intermediate` (the up projection and the activation) and `output` (the down
projection, its dropout, then the add and the block's output norm). Two of those are
registered under `output`, a name every nnsight envoy serves itself, and the
feed-forward path has no module of its own.

So the trunk's envoy (`BertStack`) regroups every block before the blocks are
mirrored, on every load and dispatch (`regroup_block`): the attention's `output` moves to
`attention.self_output`, and `intermediate` and the block's `output` go under one
container, `mlp`, as `mlp.intermediate` and `mlp.ffn_output`. The forward keeps
reaching every module where it did (the moved ones stay plain attributes under their
old names), and the block's `feed_forward_chunk` becomes, on the instance, a call of
the container, which runs the same two modules in the same order: every number is
the model's own. The registration moves, and with it the parameter names
(`...layer.0.mlp.intermediate.dense.weight`), so a model saved from an nnterp load
no longer loads in transformers.

The block is post-LN (`PostLNLayer`): `attention_output` and `mlp_output` are the
terms entering each add (each output projection's dropout), `layer_mid ==
layer_input + attention_output`, and `layer_output ==
mlp.ffn_output.LayerNorm(mlp_norm_output + mlp_output)`, bit for bit. The
attention's interior is read inside the inner `self` module, at its call of the
shared attention interface (`BertAttention`), or, on the encoders whose inner
module still multiplies, masks and normalizes in its own forward (Megatron-BERT,
RemBERT, TAPAS, LUKE, BigBird's full attention), at those operations
(`BertOwnAttention`), under every attention implementation.
"""

from __future__ import annotations

from typing import Any

import torch

from .attention import INTERFACE, Attention, interface_reason
from .eproperty import EProperty
from .layer import Residual
from .mlp import Mlp
from .own_attention import HEADS_FIRST, KEYS_TRANSPOSED, OwnAttention, own_value
from .regrouped import Regrouping
from .standard import Plain

#: The block's names, keyed from the block: the attention's two halves and the feed-forward container's.
BERT_BLOCK_RENAME = {
    "attention": "self_attn",
    "attention.self_output.LayerNorm": "post_attention_layernorm",
    "attention.self_output.dense": "attention.o_proj",
    "attention.self.query": "attention.self.q_proj",
    "attention.self.key": "attention.self.k_proj",
    "attention.self.value": "attention.self.v_proj",
    "mlp.intermediate.dense": "mlp.up_proj",
    "mlp.intermediate.intermediate_act_fn": "mlp.act_fn",
    "mlp.ffn_output.dense": "mlp.down_proj",
}

#: The block's output norm, as a path from the block: its output is the block's, `layer_output`.
OUTPUT_NORM = "mlp.ffn_output.LayerNorm"


class FeedForward(torch.nn.Module):
    """A BERT block's feed-forward path as one module: `intermediate`, then `ffn_output` with the add and the norm.

    It computes what the block's `feed_forward_chunk` computes, with the same two
    modules, and the block calls it in that method's place.
    """

    def __init__(self, intermediate: torch.nn.Module, ffn_output: torch.nn.Module) -> None:
        super().__init__()
        self.intermediate = intermediate
        self.ffn_output = ffn_output

    def forward(self, attention_output: torch.Tensor) -> torch.Tensor:
        return self.ffn_output(self.intermediate(attention_output), attention_output)


def regroup_attention(attention: torch.nn.Module) -> None:
    """Move a BERT attention's `output` module to `self_output`; its forward still finds it as `self.output`.

    Idempotent: an attention already regrouped is left as it is.
    """
    if "output" in attention._modules:
        self_output = attention._modules.pop("output")
        attention.self_output = self_output
        # The attention's forward calls `self.output`; the instance dict answers before torch's registry.
        object.__setattr__(attention, "output", self_output)


def regroup_block(block: torch.nn.Module) -> None:
    """Move the block's two `output` modules off that name: `attention.self_output`, and `mlp` for the feed-forward path.

    Idempotent: a block already regrouped is left as it is.
    """
    regroup_attention(block.attention)
    if "mlp" not in block._modules:
        mlp = FeedForward(block._modules.pop("intermediate"), block._modules.pop("output"))
        block.mlp = mlp

        def feed_forward_chunk(attention_output: torch.Tensor) -> torch.Tensor:
            return mlp(attention_output)

        # `apply_chunking_to_forward` counts the chunk's parameters, so the call goes through a one-argument function.
        object.__setattr__(block, "feed_forward_chunk", feed_forward_chunk)


def regroup_blocks(trunk: torch.nn.Module) -> None:
    """`regroup_block` on every block under `trunk`: the encoder stack (`.layer`) or the model holding it (`.encoder`)."""
    stack = trunk if "layer" in trunk._modules else trunk.encoder
    for block in stack.layer:
        regroup_block(block)


class BertStack(Regrouping, Plain):
    """The envoy of the trunk and of its encoder stack: it regroups every block before anything beneath is mirrored.

    Both are mapped: `Plain` keeps only the renames that bind beneath a module, so the
    trunk must see the regrouped blocks before it keeps them (under a masked-LM head),
    and the stack regroups where the trunk is the root (a bare load).
    """

    regroup = staticmethod(regroup_blocks)


def _inner(name: str, location: str, **kwargs: Any) -> EProperty:
    """The base attention's value `name`, read at the inner `self` module's call of the attention interface."""
    return own_value(name, f"self.source.{INTERFACE}.{location}", unavailable=interface_reason, **kwargs)


class BertAttention(Attention):
    """A BERT attention: the inner `self` runs the heads through the attention interface, `self_output` projects."""

    @property
    def num_heads(self) -> int:
        return self._module.self.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.self.attention_head_size

    attention_queries = _inner("attention_queries", "inputs", select=1)
    attention_keys = _inner("attention_keys", "inputs", select=2)
    attention_values = _inner("attention_values", "inputs", select=3)
    attention_scores = _inner("attention_scores", "source.nn_functional_softmax_0.input")
    attention_probabilities = _inner("attention_probabilities", "source.nn_functional_dropout_0.output")
    attention_head_outputs = _inner("attention_head_outputs", "output", select=0)

    @EProperty(
        "self_output.dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )
    def attention_output(self, value) -> Residual:
        return value


class BertMlp(Mlp):
    """A BERT feed-forward path: `up_proj`, the activation, `down_proj`, then the add and the block's output norm."""

    @EProperty(
        "ffn_output.dropout.output",
        description="What the MLP adds to the residual stream, the term its own add takes",
    )
    def mlp_output(self, value) -> Residual:
        return value


def _own(name: str, location: str, shape: Any = None, **kwargs: Any) -> EProperty:
    """The base attention's value `name`, read at operation `location` of the inner `self` module's own forward."""
    if shape is not None:
        kwargs["shape"] = shape
    return own_value(name, f"self.source.{location}", **kwargs)


class BertOwnAttention(OwnAttention, BertAttention):
    """A BERT attention whose inner `self` does its own arithmetic, BERT's original forward.

    The inner forward multiplies the heads-first queries by the transposed keys
    (`torch.matmul`), divides by the head width's square root, adds the mask, takes the
    softmax, runs its dropout module on the pattern and multiplies the pattern by the
    values: each value is read at its operation, the keys where the product takes them.
    """

    attention_queries = _own("attention_queries", "torch_matmul_0.inputs", select=0)
    attention_keys = _own("attention_keys", "torch_matmul_0.inputs", KEYS_TRANSPOSED, select=1)
    attention_values = _own("attention_values", "torch_matmul_1.inputs", select=1)
    attention_scores = _own("attention_scores", "nn_functional_softmax_0.input")
    attention_probabilities = _own("attention_probabilities", "self_dropout_0.output")
    attention_head_outputs = _own("attention_head_outputs", "torch_matmul_1.output", HEADS_FIRST)
