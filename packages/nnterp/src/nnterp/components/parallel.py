"""Parallel blocks: the attention and the MLP read the same stream, and the block adds both at once.

A parallel block computes `x + self_attn(norm(x)) + mlp(norm'(x))`, where `norm'` is
the attention's own norm on a one-norm block (GPT-J, Phi, Cohere, Falcon-7B) and a
second norm of the block input on a two-norm block (GPT-NeoX, Falcon's newer
layout). No stream exists between the sublayers, so `layer_mid` is unavailable with
the `PARALLEL` reason, and the MLP's normed input is the output of whichever norm
feeds it. The block sums the three terms in an order of its own, so the identity
`layer_input + attention_output + mlp_output == layer_output` holds to float32
rounding rather than bit for bit wherever that order is not `(x + attn) + mlp`.

Some configs switch between the parallel and the sequential block
(`use_parallel_residual` on GPT-NeoX and StableLM): such a family overrides
`ParallelLayer.parallel()`, and the values follow the checkpoint.

`block_contribution` reads a contribution the block forms out of the sublayer's
output (after a dropout of its own, say), on any block, parallel or not.
"""

from __future__ import annotations

from typing import Any

from .eproperty import EProperty
from .layer import Layer, Residual
from .reasons import PARALLEL

#: The block's norm that feeds the MLP on a sequential block.
SEQUENTIAL_MLP_NORM = "post_attention_layernorm"


def parallel_reason(layer: Any) -> str | None:
    """`PARALLEL` where this block runs its sublayers in parallel (its `parallel()`), else `None`."""
    return PARALLEL if layer.parallel() else None


def mlp_norm_key(layer: Any) -> str:
    """The output of the norm the MLP reads: `PARALLEL_MLP_NORM` on a parallel block, the post-attention norm otherwise."""
    norm = layer.PARALLEL_MLP_NORM if layer.parallel() else SEQUENTIAL_MLP_NORM
    return f"{norm}.output"


def mlp_norm_reason(layer: Any) -> str | None:
    """Why the norm `mlp_norm_key` names is missing from this block, or `None` where the block has it."""
    norm = mlp_norm_key(layer).rsplit(".", 1)[0]
    return None if norm in layer.__dict__ or norm in layer._aliases else f"no {norm} module on this block"


def _where(key: str) -> str:
    """What a contribution key names, in words: a sibling module's output or an operation of the block's forward."""
    path = key.removeprefix("../").rsplit(".", 1)[0]
    if path.startswith("source."):
        return f"the output of {path.removeprefix('source.')} in the block's forward"
    return f"the output of the block's {path}"


def block_contribution(key: str, sublayer: str, where: str | None = None) -> EProperty:
    """A sublayer's contribution read at `key`, a path from the sublayer (``../`` climbs to the block).

    `sublayer` is ``"attention"`` or ``"mlp"`` and names the value (`attention_output`
    or `mlp_output`), so assigning the result in a subclass of `Attention` or `Mlp`
    replaces the module output the base reads. `where` ends the description, saying
    what tensor the block adds; by default it is read off the key.
    """
    if sublayer not in ("attention", "mlp"):
        raise ValueError(f"a sublayer is 'attention' or 'mlp', not {sublayer!r}")
    what = "attention" if sublayer == "attention" else "MLP"

    def contribution(self: Any, value: Any) -> Residual:
        return value

    contribution.__name__ = f"{sublayer}_output"
    description = f"What the {what} adds to the residual stream: {where or _where(key)}"
    return EProperty(key, description=description)(contribution)


class ParallelLayer(Layer):
    """A block whose sublayers read the same input; no stream lies between them.

    `parallel()` says whether this checkpoint's block is parallel: always, unless a
    family whose config switches overrides it. `PARALLEL_MLP_NORM` is the module
    whose output the MLP reads on a parallel block: `input_layernorm`, the attention's
    norm, where one norm feeds both sublayers.
    """

    PARALLEL_MLP_NORM = "input_layernorm"

    def parallel(self) -> bool:
        """Whether this block runs the attention and the MLP side by side."""
        return True

    @EProperty(
        f"{SEQUENTIAL_MLP_NORM}.input",
        description="The residual stream after the attention add",
        unavailable=parallel_reason,
    )
    def layer_mid(self, value) -> Residual:
        return value

    @EProperty(mlp_norm_key, description="The normed stream entering the MLP", unavailable=mlp_norm_reason)
    def mlp_norm_output(self, value) -> Residual:
        return value
