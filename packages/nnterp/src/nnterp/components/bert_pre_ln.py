"""BERT's block with a norm before each sublayer (Megatron-BERT, RoBERTa-PreLayerNorm, XLM-RoBERTa-XL).

`h = x + attention(input_layernorm(x)); out = h + ffn(post_attention_layernorm(h))`,
and a final norm after the last block.

These encoders keep BERT's modules (`nnterp.components.bert_block`), the attention's
inner `self` and `output` and the feed-forward path's `intermediate` and `output`,
and add the two pre-norms where each model chose: the attention's norm inside the
attention module, called at the top of its forward, and the MLP's norm on the
block, called at the top of `feed_forward_chunk` (Megatron-BERT, XLM-RoBERTa-XL),
or inside `intermediate`, at the top of its forward (RoBERTa-PreLayerNorm). Either
way no module reads the normed stream as its input, and the attention module reads
the stream itself (its output module adds it back).

So the trunk's envoy (`PreLNStack`) regroups every block before the blocks are
mirrored, on every load and dispatch (`regroup_pre_ln_block`):

- the attention's norm moves to the block as `input_layernorm`, and the attention's
  `self` and `output` go under one container, `attention` (`PreLNAttention`), as
  `attention.self` and `attention.self_output`; the block's attention call becomes,
  on the instance, the norm, then the container called with the normed stream and,
  as `residual`, the stream itself;
- the MLP's norm moves to the block as `post_attention_layernorm`, and
  `intermediate` and the block's `output` go under `mlp` (`PreLNFeedForward`), as
  `mlp.intermediate` and `mlp.ffn_output`; the block's `feed_forward_chunk` becomes,
  on the instance, the norm, then the container called with the normed stream and
  the stream itself.

Where a norm moves off a module whose forward still calls it (`intermediate`), that
module's old name answers with the identity, since the norm has already run; each
module runs once, in the model's order, on the same tensors, so every number is
the model's own. The registration moves, and with it the parameter names
(`...layer.0.input_layernorm.weight`), so a model saved from an nnterp load no
longer loads in transformers.

The block is pre-norm (`nnterp.components.Layer`): `attention_output` and
`mlp_output` are the terms entering each add, and
`layer_input + attention_output + mlp_output == layer_output`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from .bert_block import FeedForward
from .regrouped import Regrouping
from .standard import Plain

#: The block's names, keyed from the block, once regrouped: the attention's halves and the feed-forward container's.
PRE_LN_BLOCK_RENAME = {
    "attention": "self_attn",
    "attention.self_output.dense": "attention.o_proj",
    "attention.self.query": "attention.self.q_proj",
    "attention.self.key": "attention.self.k_proj",
    "attention.self.value": "attention.self.v_proj",
    "mlp.intermediate.dense": "mlp.up_proj",
    "mlp.intermediate.intermediate_act_fn": "mlp.act_fn",
    "mlp.ffn_output.dense": "mlp.down_proj",
}


def _identity(hidden_states: torch.Tensor) -> torch.Tensor:
    return hidden_states


class PreLNAttention(torch.nn.Module):
    """A pre-LN BERT attention without its norm: the heads (`self`), then the output module, which adds `residual`.

    Called with the normed stream, the arguments the block gave the attention, and the
    stream itself as `residual`; it returns what the attention returned, the stream
    after the add first.
    """

    def __init__(self, heads: torch.nn.Module, self_output: torch.nn.Module) -> None:
        super().__init__()
        self.self = heads
        self.self_output = self_output

    def forward(self, hidden_states: torch.Tensor, *args: Any, residual: torch.Tensor, **kwargs: Any) -> tuple:
        outputs = self.self(hidden_states, *args, **kwargs)
        return (self.self_output(outputs[0], residual), *outputs[1:])


class PreLNFeedForward(FeedForward):
    """A pre-LN BERT feed-forward path: `intermediate` on the normed stream, then `ffn_output`, which adds `residual`."""

    def forward(self, hidden_states: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.ffn_output(self.intermediate(hidden_states), residual)


def _detach(block: torch.nn.Module, path: str) -> torch.nn.Module:
    """Unregister the module at `path` under `block`; its old name answers with the identity from now on.

    The regrouped block runs the norm itself, before the module that used to call it.
    """
    parent_path, _, name = path.rpartition(".")
    parent = block.get_submodule(parent_path) if parent_path else block
    module = parent._modules.pop(name)
    # A forward that still calls the norm by its old name finds the identity: the norm has already run.
    object.__setattr__(parent, name, _identity)
    return module


def regroup_pre_ln_block(block: torch.nn.Module, attention_norm: str, mlp_norm: str) -> None:
    """Move the two pre-norms to the block and the sublayers under `attention` and `mlp` containers.

    `attention_norm` is the attention norm's name in the attention module (`ln`), and
    `mlp_norm` the MLP norm's path from the block (`ln`, `intermediate.LayerNorm`).
    Idempotent: a block already regrouped is left as it is.
    """
    if "mlp" in block._modules:
        return
    attention = block._modules.pop("attention")
    input_layernorm = attention._modules[attention_norm]
    post_attention_layernorm = _detach(block, mlp_norm)
    block.input_layernorm = input_layernorm
    block.attention = container = PreLNAttention(attention._modules["self"], attention._modules["output"])
    block.post_attention_layernorm = post_attention_layernorm
    block.mlp = mlp = PreLNFeedForward(block._modules.pop("intermediate"), block._modules.pop("output"))

    def attend(hidden_states: torch.Tensor, *args: Any, **kwargs: Any) -> tuple:
        return container(input_layernorm(hidden_states), *args, residual=hidden_states, **kwargs)

    def feed_forward_chunk(attention_output: torch.Tensor) -> torch.Tensor:
        return mlp(post_attention_layernorm(attention_output), attention_output)

    # The block's forward calls `self.attention` and `self.feed_forward_chunk`; the instance dict answers first.
    # `apply_chunking_to_forward` counts the chunk's parameters, so the chunk is a one-argument function.
    object.__setattr__(block, "attention", attend)
    object.__setattr__(block, "feed_forward_chunk", feed_forward_chunk)


def pre_ln_regroup(attention_norm: str, mlp_norm: str) -> Callable[[torch.nn.Module], None]:
    """The function that regroups every pre-LN block under a trunk or its encoder stack (`.encoder.layer`)."""

    def regroup(trunk: torch.nn.Module) -> None:
        stack = trunk if "layer" in trunk._modules else trunk.encoder
        for block in stack.layer:
            regroup_pre_ln_block(block, attention_norm, mlp_norm)

    regroup.__doc__ = f"Regroup every pre-LN block (its norms at `{attention_norm}` and `{mlp_norm}`)."
    return regroup


class PreLNStack(Regrouping, Plain):
    """The envoy of the trunk and of its encoder stack: it regroups every block before anything beneath is mirrored.

    A family subclasses it with its norms' paths, `regroup =
    staticmethod(pre_ln_regroup("ln", "ln"))`, and maps both the trunk and
    the stack to it, as `BertStack` is mapped.
    """
