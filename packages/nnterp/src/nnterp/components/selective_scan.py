"""The Mamba-1 mixer: a selective scan over a per-channel state, `SelectiveScan`.

Per channel of the mixer's inner width the state holds `state_dim` numbers; each
token does `h = exp(dt * A) * h + dt * B * x` and `y = C . h + D * x`. The prompt
runs `mamba_selective_scan`, whose pure-torch body is itself the token loop, and a
decode step runs `mamba_selective_state_update`, which updates the state once. The
kernels take channel-first tensors; every value is a tokens-first view of its
argument and a write is laid back out.
"""

from __future__ import annotations

from typing import Any, Optional

import torch
import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor

from .eproperty import DerivedEProperty, EProperty
from .names import value_label
from .recurrent import RecurrentMixer, body_path, kernel, needs_recurrent_routing, needs_torch_kernels
from .standard import BATCH, CHANNELS, GROUPS, SEQ, STATE_DIM, named_layout

# A Mamba-1 scan's queries (C) or keys (B): one group shared by every channel.
ScanQK = named_layout("ScanQK", Float[Tensor, f"{BATCH} {SEQ} {GROUPS} {STATE_DIM}"])
# One number per token and channel: the scan's input, its output, or its step size.
ScanValues = named_layout("ScanValues", Float[Tensor, f"{BATCH} {SEQ} {CHANNELS}"])
ScanSteps = named_layout("ScanSteps", Float[Tensor, f"{BATCH} {SEQ} {CHANNELS}"])
# The log decay per token, channel and state dimension.
ScanDecays = named_layout("ScanDecays", Float[Tensor, f"{BATCH} {SEQ} {CHANNELS} {STATE_DIM}"])
# The scan's state, and that state after every token.
ScanState = named_layout("ScanState", Float[Tensor, f"{BATCH} {CHANNELS} {STATE_DIM}"])
ScanStates = named_layout("ScanStates", Float[Tensor, f"{BATCH} {SEQ} {CHANNELS} {STATE_DIM}"])

#: The prompt kernel's positional arguments, `mamba_selective_scan(x, dt, A, B, C, D=..., z=..., delta_bias=...)`.
CHUNK_ARGUMENTS = {"x": 0, "dt": 1, "A": 2, "B": 3, "C": 4, "D": 5, "z": 6, "bias": "delta_bias"}
#: The decode kernel's, `mamba_selective_state_update(state, x, dt, A, B, C, D, z=..., dt_bias=...)`.
RECURRENT_ARGUMENTS = {"state": 0, "x": 1, "dt": 2, "A": 3, "B": 4, "C": 5, "D": 6, "z": 7, "bias": "dt_bias"}


class SelectiveScan(RecurrentMixer):
    """A Mamba-1 mixer, `model.layers[i].linear_attn`.

    `ARGUMENTS` says where each kernel takes its arguments; `HEAD_OUTPUT_OPS` names,
    per kernel, the binding of `y` after the `D` skip and before the gate, and
    `STEP_OUTPUT_OP` the decode kernel's state as the cache receives it.
    """

    CHUNK_KERNEL = "mamba_selective_scan_0"
    RECURRENT_KERNEL = "mamba_selective_state_update_0"
    STATE_OP = "ssm_state_3"
    STEP_STATE_OP = "ssm_state_0"
    STEP_OUTPUT_OP = "ssm_state_to_0"
    CHUNK_ARGUMENTS = CHUNK_ARGUMENTS
    RECURRENT_ARGUMENTS = RECURRENT_ARGUMENTS
    HEAD_OUTPUT_OPS = {"mamba_selective_scan_0": "scan_output_5", "mamba_selective_state_update_0": "out_1"}

    # -- sizes ------------------------------------------------------------------------

    @property
    def channels(self) -> int:
        """The mixer's inner width, one state per channel."""
        return self._module.intermediate_size

    @property
    def state_dim(self) -> int:
        """The numbers each channel's state holds."""
        return self._module.ssm_state_size

    @property
    def groups(self) -> int:
        """One group of `B` and `C`, shared by every channel."""
        return 1

    # -- the kernels' arguments -------------------------------------------------------------

    def _tokens_first(self, tensor: Any) -> Any:
        """A channel-first argument as `[batch, seq, ...]`: the prompt's sequence axis moved, a decode step's added."""
        return tensor.unsqueeze(1) if self._decoding() else tensor.transpose(1, 2)

    def _channel_first(self, value: Any) -> Any:
        return value[:, 0] if self._decoding() else value.transpose(1, 2)

    def _read(self, inputs, name):
        return self._tokens_first(self.argument(inputs, name))

    def _write(self, name, value):
        return self.with_argument(self._kernel_inputs(), name, self._channel_first(value))

    def _steps(self, inputs: tuple[tuple, dict]) -> Any:
        """`softplus(dt + bias)`, as the kernel computes it, channel first."""
        dt = self.argument(inputs, "dt")
        bias = self.argument(inputs, "bias")
        if bias is not None:
            dt = dt + (bias.to(dt.dtype) if self._decoding() else bias.to(dt.dtype)[..., None])
        return F.softplus(dt)

    def _seq(self, args: tuple, kwargs: dict) -> int:
        return 1 if self._decoding() else args[0].shape[2]

    # -- values -----------------------------------------------------------------------

    @EProperty(kernel("inputs"), description="C: what each token reads the state with", unavailable=needs_torch_kernels)
    def attention_queries(self, value) -> ScanQK:
        return self._read(value, "C").unsqueeze(2)

    @attention_queries.postprocess
    def attention_queries(self, value):
        return self._write("C", value[:, :, 0])

    @EProperty(
        kernel("inputs"), description="B: where each token writes into the state", unavailable=needs_torch_kernels
    )
    def attention_keys(self, value) -> ScanQK:
        return self._read(value, "B").unsqueeze(2)

    @attention_keys.postprocess
    def attention_keys(self, value):
        return self._write("B", value[:, :, 0])

    @EProperty(
        kernel("inputs"),
        description="What each channel writes (x), after the convolution and the activation",
        unavailable=needs_torch_kernels,
    )
    def attention_values(self, value) -> ScanValues:
        return self._read(value, "x")

    @attention_values.postprocess
    def attention_values(self, value):
        return self._write("x", value)

    def _betas(self) -> ScanSteps:
        """softplus(dt + dt_bias), each token's step size per channel; read-only."""
        return self._tokens_first(self._steps(self._kernel_inputs()))

    betas = DerivedEProperty(
        _betas,
        description="Each token's step size per channel, softplus(dt + dt_bias)",
        unavailable=needs_torch_kernels,
    )

    def _decays(self) -> ScanDecays:
        """dt * A, the log decay per token, channel and state dimension; read-only."""
        inputs = self._kernel_inputs()
        steps = self._steps(inputs)
        A = self.argument(inputs, "A")
        if self._decoding():
            return (steps.float()[..., None] * A.float()).unsqueeze(1)
        return (A[None, :, None, :] * steps[:, :, :, None]).transpose(1, 2)

    decays = DerivedEProperty(
        _decays, description="The log decay per channel and state dimension, dt * A", unavailable=needs_torch_kernels
    )

    @EProperty(
        kernel("inputs"),
        description="The state the call starts from: None on a prompt, a copy of the cached state on a decode step",
        unavailable=needs_torch_kernels,
    )
    def state_input(self, value) -> Optional[ScanState]:  # noqa: UP045 - the layout reads typing.Optional
        # The decode kernel updates the cache's buffer in place, which would change a saved read.
        if not self._decoding():
            return None
        return self.argument(value, "state").clone()

    @state_input.postprocess
    def state_input(self, value):
        inputs = self._kernel_inputs()
        if not self._decoding():
            raise ValueError(
                f"{value_label(self, 'state_input')}: the prompt's scan starts from zeros and takes no state"
            )
        # The kernel writes its new state into the buffer it is given: copy in, so the cache keeps it.
        with torch.no_grad():
            self.argument(inputs, "state").copy_(value)
        return inputs

    def _head_outputs_key(self) -> str:
        label = type(self).KERNEL(self)
        return f"{body_path(self, label)}.{self.HEAD_OUTPUT_OPS[label]}.output"

    @EProperty(
        lambda envoy: envoy._head_outputs_key(),
        description="Each channel's read of the state, C . h + D * x, before the silu(z) gate and the output projection",
        unavailable=needs_torch_kernels,
    )
    def attention_head_outputs(self, value) -> ScanValues:
        return self._tokens_first(value)

    @attention_head_outputs.postprocess
    def attention_head_outputs(self, value):
        return self._channel_first(value)

    @EProperty(
        lambda envoy: envoy._state_output_key(),
        select=lambda envoy: None if envoy._decoding() else 1,
        description="The state after the call's last token, as the cache receives it",
        unavailable=needs_torch_kernels,
    )
    def state_output(self, value) -> ScanState:
        return value

    @EProperty(
        lambda envoy: envoy._token_state_op(),
        description="The state after one token, one occurrence per token for tracer.iter to read or write",
        unavailable=needs_recurrent_routing,
    )
    def state(self, value) -> ScanState:
        return value

    def _all_states(self) -> ScanStates:
        """The state after every token of the call, stacked on axis 1; read-only."""
        return self._states()

    states = DerivedEProperty(
        _all_states,
        description="The state after every token of the call, read-only",
        unavailable=needs_recurrent_routing,
    )


__all__ = [
    "CHUNK_ARGUMENTS",
    "RECURRENT_ARGUMENTS",
    "ScanDecays",
    "ScanQK",
    "ScanState",
    "ScanStates",
    "ScanSteps",
    "ScanValues",
    "SelectiveScan",
]
