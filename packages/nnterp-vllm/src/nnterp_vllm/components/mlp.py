"""The MLP on vLLM: its contribution, its neurons, and why a gated or routed one serves less."""

from __future__ import annotations

from typing import Any

from nnterp.components import Neurons, Residual, Standard, needs_child, unavailable

from .reasons import GATED, ROUTED
from .values import Flat

__all__ = ["GATED", "ROUTED", "Mlp", "RoutedMlp", "gated"]


def gated(envoy: Any) -> str | None:
    """`GATED` on an MLP whose gate and up projections vLLM fused (``gate_up_proj``, an act-and-multiply ``act_fn``).

    Otherwise the reason a plain MLP lacks the value: no down projection to read it at.
    """
    act = envoy.__dict__.get("act_fn")
    if "gate_up_proj" in envoy.__dict__ or (act is not None and type(act._module).__name__.endswith("AndMul")):
        return GATED
    return needs_child("down_proj", "mlp")(envoy)


class Mlp(Standard):
    """A block's MLP, `model.layers[i].mlp`.

    On a plain MLP both neuron values are read at the down projection's input: vLLM
    builds one activation module by name and shares it between every block, so its
    output cannot tell the blocks apart, and what the down projection sums is the
    activation. On a gated one (a ``gate_up_proj``) only the product is a tensor.
    """

    @property
    def intermediate_size(self) -> int:
        """The MLP width: the down projection's input features."""
        down = self.down_proj._module
        return getattr(down, "input_size", None) or down.weight.shape[-1]

    @Flat("output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows

    @Flat(
        "down_proj.input",
        description="The activation function's output",
        unavailable=gated,
    )
    def mlp_activation(self, rows) -> Neurons:
        return rows

    @Flat(
        "down_proj.input",
        description="What the down projection sums, one value per neuron",
        unavailable=needs_child("down_proj", "mlp"),
    )
    def mlp_neurons(self, rows) -> Neurons:
        return rows


class RoutedMlp(Standard):
    """A mixture of experts in vLLM's fused kernel: its contribution only."""

    @Flat("output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows

    mlp_activation = unavailable(ROUTED)
    mlp_neurons = unavailable(ROUTED)
