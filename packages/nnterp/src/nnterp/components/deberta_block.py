"""DeBERTa's block, shared by DeBERTa, DeBERTa-v2 and MPNet: BERT's layout, its forward calling each module itself.

`h = attention.self_output.LayerNorm(x + attention(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

A DeBERTa block holds the same four modules as a BERT block (`attention.self`,
`attention.output`, `intermediate`, `output`), and is regrouped the same way
(`nnterp.components.bert_block`): the attention's `output` moves to
`attention.self_output`, and `intermediate` and the block's `output` go under one
`FeedForward` container, `mlp`. BERT's block reaches its feed-forward path through
`feed_forward_chunk`; DeBERTa's forward calls `self.intermediate(h)` and then
`self.output(intermediate, h)` directly. So, on the instance, `intermediate` becomes
a function that hands `h` on unchanged, and `output` a call of the container on
`h`: the container runs the same two modules in the same order, and every number is
the model's own. The parameter names move with the modules
(`...layer.0.mlp.intermediate.dense.weight`), so a model saved from an nnterp load
no longer loads in transformers. MPNet's block calls its feed-forward path the same
way (its attention holds no `output` module, so only the feed-forward path moves).

A DeBERTa block returns `(hidden_states, attention_weights)`, and the encoder unpacks both,
so a skipped block hands on `(stream, None)` (`DebertaLayer`).
"""

from __future__ import annotations

from typing import Any

import torch

from .bert_block import FeedForward
from .post_ln import PostLNLayer
from .regrouped import Regrouping
from .standard import Plain


def _hand_on(hidden_states: torch.Tensor) -> torch.Tensor:
    return hidden_states


def regroup_deberta_block(block: torch.nn.Module) -> None:
    """Move the block's two `output` modules off that name: `attention.self_output`, and `mlp` for the feed-forward path.

    Idempotent: a block already regrouped is left as it is.
    """
    attention = block.attention
    if "output" in attention._modules:
        self_output = attention._modules.pop("output")
        attention.self_output = self_output
        # The attention's forward calls `self.output`; the instance dict answers before torch's registry.
        object.__setattr__(attention, "output", self_output)
    if "mlp" not in block._modules:
        mlp = FeedForward(block._modules.pop("intermediate"), block._modules.pop("output"))
        block.mlp = mlp

        def output(intermediate_output: torch.Tensor, attention_output: Any) -> torch.Tensor:
            # `intermediate_output` is `attention_output` itself (`_hand_on`): the container runs both modules.
            return mlp(attention_output)

        object.__setattr__(block, "intermediate", _hand_on)
        object.__setattr__(block, "output", output)


def regroup_deberta_blocks(trunk: torch.nn.Module) -> None:
    """`regroup_deberta_block` on every block under `trunk`: the encoder stack (`.layer`) or the model (`.encoder`)."""
    stack = trunk if "layer" in trunk._modules else trunk.encoder
    for block in stack.layer:
        regroup_deberta_block(block)


class DebertaStack(Regrouping, Plain):
    """The envoy of the trunk and of its encoder stack: it regroups every block before anything beneath is mirrored."""

    regroup = staticmethod(regroup_deberta_blocks)


class DebertaLayer(PostLNLayer):
    """A DeBERTa block: post-LN, returning `(hidden_states, attention_weights)`, which the encoder unpacks in two."""

    returns_tuple = True

    def skip_with(self, stream: Any) -> Any:
        return (stream, None)
