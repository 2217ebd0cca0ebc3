"""The feed-forward sublayer: what it adds to the stream and its neurons."""

from __future__ import annotations

from typing import Any

from jaxtyping import Float
from torch import Tensor

from .eproperty import EProperty
from .layer import Residual
from .reasons import needs_child
from .standard import BATCH, INTERMEDIATE, SEQ, Standard, first_tensor, named_layout, rewrap

# One activation per MLP neuron and token.
Neurons = named_layout("Neurons", Float[Tensor, f"{BATCH} {SEQ} {INTERMEDIATE}"])


class Mlp(Standard):
    """A block's MLP, `model.layers[i].mlp`."""

    @property
    def intermediate_size(self) -> int:
        """The MLP width, read off the down projection (its input features)."""
        down = getattr(self, "down_proj", None)
        if down is None:
            raise AttributeError(f"{self.path} has no down_proj to read the MLP width off")
        module = down._module
        if hasattr(module, "in_features"):
            return module.in_features
        return module.weight.shape[0]

    @EProperty("output", description="What the MLP adds to the residual stream")
    def mlp_output(self, value) -> Residual:
        return first_tensor(value)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return rewrap(self, value)

    @EProperty(
        "act_fn.output",
        description="The activation function's output",
        unavailable=needs_child("act_fn", "mlp"),
    )
    def mlp_activation(self, value) -> Neurons:
        return value

    @EProperty(
        "down_proj.input",
        description="What the down projection sums, one value per neuron",
        unavailable=needs_child("down_proj", "mlp"),
    )
    def mlp_neurons(self, value) -> Neurons:
        return value


def n_inner_intermediate_size(model: Any) -> int:
    """The MLP width of a GPT-2-built config: `n_inner`, `None` meaning four times the hidden size.

    A family whose config names the width so (GPT-2, GPT-J) sets its `intermediate_size` to this.
    """
    return model.config.n_inner or 4 * model.hidden_size
