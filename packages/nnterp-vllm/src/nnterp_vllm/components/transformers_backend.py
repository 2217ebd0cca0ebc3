"""Components for a family vLLM runs through its transformers backend (``TransformersForCausalLM``).

vLLM has no implementation of its own for some architectures and runs transformers'
modules inside the engine: the block, attention and MLP classes are transformers'
own, the linear layers are swapped for vLLM's parallel ones, and attention goes
through vLLM's attention layer, attached to each attention module as its child
``attn``. The model is called with a leading batch axis of 1 over the step's tokens,
so a block's values already come as ``[1, tokens, ...]``; they are served as
private copies all the same. The attention interior is read at ``attn`` as on every
other vLLM family, and ``.source`` is not used, since the backend rewrites the
modules' forwards.
"""

from __future__ import annotations

from typing import Any

from nnterp.components import BlockModules, HeadOutputs, Neurons, Residual, Standard, needs_child

from .attention import Attention as EngineAttention
from .mlp import gated
from .values import Rows

__all__ = ["Attention", "Batched", "Layer", "Mlp"]


class Batched(Rows):
    """A value that arrives with its batch axis already, ``[1, tokens, ...]``: served as a private copy of it."""


class Layer(BlockModules, Standard):
    """A transformers block run by the backend: called with the stream first, returning it (or a tuple led by it).

    A standard module the block lacks is refused in the wording of every engine's blocks (`BlockModules`).
    """

    returns_tuple = False

    def skip_with(self, stream: Any) -> Any:
        """`stream` packed as this block's output, for `Envoy.skip`."""
        return (stream,) if self.returns_tuple else stream

    @Batched("input", description="The residual stream entering the block")
    def layer_input(self, rows) -> Residual:
        return rows

    @Batched(
        "input_layernorm.output",
        description="The normed stream the attention reads",
        unavailable=needs_child("input_layernorm"),
    )
    def attention_norm_output(self, rows) -> Residual:
        return rows

    @Batched(
        "post_attention_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=needs_child("post_attention_layernorm"),
    )
    def layer_mid(self, rows) -> Residual:
        return rows

    @Batched(
        "post_attention_layernorm.output",
        description="The normed stream entering the MLP",
        unavailable=needs_child("post_attention_layernorm"),
    )
    def mlp_norm_output(self, rows) -> Residual:
        return rows

    @Batched("mlp.input", description="What the MLP is called with", unavailable=needs_child("mlp"))
    def mlp_input(self, rows) -> Residual:
        return rows

    @Batched("output", description="The residual stream leaving the block")
    def layer_output(self, rows) -> Residual:
        return rows


class Attention(EngineAttention):
    """A transformers attention run by the backend; the interior is vLLM's attention layer ``attn``."""

    @Batched(
        "o_proj.input",
        description="Every head's output side by side, as the output projection takes it",
        unavailable=needs_child("o_proj", "attention"),
    )
    def attention_premix(self, rows) -> HeadOutputs:
        return rows.unflatten(-1, (self.num_heads, -1))

    @attention_premix.postprocess
    def attention_premix(self, value):
        return value.flatten(-2)

    @Batched("output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


def _activation(envoy: Any) -> str | None:
    # The backend fuses a gated MLP's gate and up projections into vLLM's kernels.
    return gated(envoy) or needs_child("act_fn", "mlp")(envoy)


class Mlp(Standard):
    """A transformers MLP run by the backend: its modules are per block, so a plain activation is its own."""

    @property
    def intermediate_size(self) -> int:
        """The MLP width: the down projection's input features."""
        down = self.down_proj._module
        return getattr(down, "input_size", None) or down.weight.shape[-1]

    @Batched("output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows

    @Batched("act_fn.output", description="The activation function's output", unavailable=_activation)
    def mlp_activation(self, rows) -> Neurons:
        return rows

    @Batched(
        "down_proj.input",
        description="What the down projection sums, one value per neuron",
        unavailable=needs_child("down_proj", "mlp"),
    )
    def mlp_neurons(self, rows) -> Neurons:
        return rows
