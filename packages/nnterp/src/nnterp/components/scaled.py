"""Values the model multiplies by a factor, read as the product and written divided by it (`scaled_value`).

`scaled_value` is the one mechanism: Granite's blocks (`scaled_output`), the depth
weights of Beam's adds, Muse Spark's gated adds and Inkling 2's tower blocks declare
their contributions on it. Granite's blocks scale each sublayer's output before adding
it (`residual_multiplier`): the block computes `x + multiplier * sublayer(...)`, so a
contribution is the scaled product. It is read as `multiplier * output`, which is the
product the block forms, bit for bit. An in-place edit of the served product, or an
assignment, is divided by the multiplier before the block scales it again; an
unedited read hands the module's output back untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from .attention import Attention
from .eproperty import EProperty
from .layer import Residual
from .logit_lens import LogitLens
from .mlp import Mlp
from .moe import Moe
from .own_attention import always
from .standard import first_tensor, rewrap


def residual_multiplier(envoy: Any) -> float:
    """The multiplier the block holding `envoy` applies to its sublayers' outputs (MiniCPM's `residual_scale`)."""
    block = envoy.parent._module
    return block.residual_multiplier if hasattr(block, "residual_multiplier") else block.residual_scale


def _repack(raw: Any, tensor: Any) -> Any:
    if isinstance(raw, (tuple, list)):
        return (tensor, *raw[1:])
    return tensor


def scaled_value(
    key: Any,
    factor: Callable[[Any], Any],
    description: str,
    *,
    layout: Any = Residual,
    unavailable: Any = None,
    name: str = "contribution",
    serve: Callable[[Any, Any], Any] | None = None,
    native: Callable[[Any, Any], Any] | None = None,
) -> EProperty:
    """A value read as the tensor at `key` times `factor(envoy)`, and written back divided by it.

    The model forms the product itself, so the read is that product, bit for bit. An
    assignment, or an in-place edit of the served product, is divided by the factor
    before the model multiplies it again; an unedited read hands the tensor at `key`
    back untouched. `serve(envoy, product)` gives the product its served shape and
    `native(envoy, view)` undoes it (a packed tower's images axis). A `key` of
    `"output"` puts a written tensor back into the module's returned tuple; the value
    is named `name` and declares `layout`.
    """

    def native_of(envoy: Any, view: Any) -> Any:
        return view if native is None else native(envoy, view)

    def product(self, value):
        scaled = first_tensor(value) * factor(self)
        return scaled if serve is None else serve(self, scaled)

    product.__name__ = name
    product.__annotations__ = {"return": layout}
    prop = EProperty(key, description=description, unavailable=unavailable)(product)

    @prop.postprocess
    def product(self, value):
        value = native_of(self, value) / factor(self)
        return rewrap(self, value) if key == "output" else value

    @prop.transform
    def product(self, view, raw):
        scale = factor(self)
        view = native_of(self, view)
        if torch.equal(view, first_tensor(raw) * scale):
            return raw
        return _repack(raw, view / scale)

    return prop


def scaled_output(
    description: str, key: Any = "output", unavailable: Any = None, multiplier: Any = residual_multiplier
) -> EProperty:
    """A contribution read as `residual_multiplier * output` of the host module, or of the module at `key`.

    A `key` inside a forward passes its `unavailable` predicate along. `multiplier(envoy)`
    gives the factor where the block scales each sublayer by its own (Falcon-H1).
    """
    return scaled_value(key, multiplier, description, unavailable=unavailable)


class ScaledAttention(Attention):
    """An attention whose output the block scales by `residual_multiplier`."""

    attention_output = scaled_output("What the attention adds to the residual stream, after the block's multiplier")


class ScaledMlp(Mlp):
    """An MLP whose output the block scales by `residual_multiplier`."""

    mlp_output = scaled_output("What the MLP adds to the residual stream, after the block's multiplier")


class ScaledMoe(Moe):
    """A mixture whose output the block scales by `residual_multiplier`; the mixture's own values are unscaled."""

    mlp_output = scaled_output("What the mixture adds to the residual stream, after the block's multiplier")


class ScaledSiblingMoe(ScaledMoe):
    """A mixture beside a shared MLP that is the block's own module; the block scales their sum.

    The block computes `x + multiplier * (moe(h) + shared(h))` (Granite-MoE-Shared's
    `shared_mlp`), so the mixture module's output is the routed experts' sum alone.
    `SIBLING` names the block's shared module and `SUM` the binding of the block's
    forward that holds the sum: `mlp_output` is that sum times the multiplier, and
    `shared_expert_output` is the sibling's output. Where the block carries no
    sibling (a zero shared width), the mixture's output is the whole sum. The
    block's envoy sets `sourced = True`, so the sum is served on every run.
    """

    SIBLING = "shared_mlp"
    SUM = "hidden_states_4"

    def has_sibling(self) -> bool:
        """Whether the block holding this mixture runs a shared module beside it."""
        return getattr(self.parent._module, self.SIBLING, None) is not None

    @property
    def SHARED(self) -> str | None:  # noqa: N802 - the class attribute every `Moe` reads, computed here
        return f"../{self.SIBLING}.output" if self.has_sibling() else None

    mlp_output = scaled_output(
        "What the mixture and the block's shared expert add to the residual stream, after the block's multiplier",
        key=lambda envoy: f"../source.{envoy.SUM}.output" if envoy.has_sibling() else "output",
        unavailable=always,
    )


#: The logit lens of a model that divides the head's output by `config.logits_scaling`.
divide_by_logits_scaling = LogitLens(divide="logits_scaling")
