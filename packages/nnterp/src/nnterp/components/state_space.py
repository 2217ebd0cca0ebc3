"""The Mamba-2 mixer: a state-space (SSD) scan with one scalar decay per head, `StateSpace`.

Per head the state is a `head_dim` by `state_dim` matrix; each token does
`h = exp(dt * A) * h + dt * x B^T` and `y = h C + D * x`. The prompt runs
`mamba2_chunk_scan`, which computes the state only at chunk boundaries
(`new_states`), and a decode step runs `mamba2_selective_state_update`, which
updates it once. Neither binds the state per token, so `state` and
`set_state_after` are unavailable; `chunk_per_token(model)` makes every token a
boundary, and `states` then reads the state after every token of a prompt.
"""

from __future__ import annotations

from typing import Any, Optional

import torch
import torch.nn.functional as F
from jaxtyping import Float
from nnsight.intervention.interleaver import Mediator
from torch import Tensor

from .eproperty import DerivedEProperty, EProperty, unavailable
from .linear_attention import Gates
from .names import not_available
from .recurrent import RecurrentMixer, State, States, body_path, check_state, kernel, needs_torch_kernels, walk
from .standard import BATCH, GROUPS, HEAD_DIM, MIXER_HEADS, SEQ, STATE_DIM, named_layout

# A Mamba-2 scan's queries (C) or keys (B), per group of heads.
SSDQueries = named_layout("SSDQueries", Float[Tensor, f"{BATCH} {SEQ} {GROUPS} {STATE_DIM}"])
SSDKeys = named_layout("SSDKeys", Float[Tensor, f"{BATCH} {SEQ} {GROUPS} {STATE_DIM}"])
# The scan's input per head (x), and each head's output (y).
SSDValues = named_layout("SSDValues", Float[Tensor, f"{BATCH} {SEQ} {MIXER_HEADS} {HEAD_DIM}"])
SSDHeadOutputs = named_layout("SSDHeadOutputs", Float[Tensor, f"{BATCH} {SEQ} {MIXER_HEADS} {HEAD_DIM}"])

#: The prompt kernel's arguments, `mamba2_chunk_scan(x, dt, A, B, C, chunk_size=..., D=..., dt_bias=..., ...)`.
CHUNK_ARGUMENTS = {"x": 0, "dt": 1, "A": 2, "B": 3, "C": 4, "bias": "dt_bias", "state": "initial_states"}
#: The decode kernel's, `mamba2_selective_state_update(state, x, dt, A, B, C, D, dt_bias=..., ...)`.
RECURRENT_ARGUMENTS = {"state": 0, "x": 1, "dt": 2, "A": 3, "B": 4, "C": 5, "bias": "dt_bias"}

#: Why a Mamba-2 mixer has no `state` to walk token by token.
NO_TOKEN_STATE = (
    "neither Mamba-2 kernel holds the state once per token: the chunk scan computes every boundary state in one "
    "cumulative step from the initial state, so there is no per-token occurrence for tracer.iter to read or write; "
    "read states (after nnterp.chunk_per_token(model)) and assign state_input to change where a call starts"
)
#: Why a Mamba-2 mixer takes no write of the state after one token.
NO_TOKEN_WRITE = (
    "the chunk scan computes every boundary state from the initial state at once, so a state written after one "
    "token would not flow into the next; assign state_input to change where a call starts"
)


def needs_per_token_chunks(envoy: Any) -> str | None:
    """Why `states` is missing: a compiled kernel, or chunks longer than one token."""
    reason = needs_torch_kernels(envoy)
    if reason:
        return reason
    size = envoy._module.chunk_size
    if size != 1:
        return (
            f"the chunk scan holds the state only where a chunk ends, every {size} tokens (chunk_size={size}); "
            "call nnterp.chunk_per_token(model) to set every mixer's chunk_size to 1, so that every token ends "
            "a chunk (slower on long prompts)"
        )
    return None


def chunk_per_token(model: Any, enabled: bool = True) -> None:
    """Set every Mamba-2 mixer's `chunk_size` to 1 on this model, so `states` reads every token; `False` restores.

    The forward reads the attribute on every call, so this touches this model only,
    unlike `route_kernels`. The scan between chunks is quadratic in their number, and
    the reordered sums move the logits by rounding.
    """
    if not getattr(model, "dispatched", True):
        # A lazy load holds placeholder modules that the first trace replaces with the
        # loaded ones: set on the placeholders, the size would be lost.
        model.dispatch()
    found = 0
    for block in model.layers:
        mix = block.__dict__.get("linear_attn") if hasattr(block, "__dict__") else None
        mix = mix if mix is not None else getattr(block, "linear_attn", None)
        if not isinstance(mix, StateSpace):
            continue
        module = mix._module
        if "_nnterp_chunk_size" not in module.__dict__:
            module._nnterp_chunk_size = module.chunk_size
        module.chunk_size = 1 if enabled else module._nnterp_chunk_size
        found += 1
    if not found:
        raise ValueError("chunk_per_token found no Mamba-2 mixer (StateSpace) on this model")


class StateSpace(RecurrentMixer):
    """A Mamba-2 mixer, `model.layers[i].linear_attn`.

    `betas` and `decays` are the kernel's `dt` seen through `dt_bias`, the softplus
    and `A`; an assignment is turned back into the `dt` the kernel takes.
    """

    CHUNK_KERNEL = "mamba2_chunk_scan_0"
    RECURRENT_KERNEL = "mamba2_selective_state_update_0"
    STATE_OP = None
    #: The chunk scan's state at every chunk boundary, the initial state first.
    BOUNDARY_STATES = "new_states_0"
    #: The decode kernel's new state.
    STEP_OUTPUT_OP = "ssm_states_0"
    CHUNK_ARGUMENTS = CHUNK_ARGUMENTS
    RECURRENT_ARGUMENTS = RECURRENT_ARGUMENTS

    # -- sizes ------------------------------------------------------------------------

    @property
    def heads(self) -> int:
        """The mixer's heads, one decay each."""
        return self._module.num_heads

    @property
    def head_dim(self) -> int:
        """The width of one head's input and output."""
        return self._module.head_dim

    @property
    def groups(self) -> int:
        """The groups of heads that share one `B` and `C`."""
        return self._module.n_groups

    @property
    def state_dim(self) -> int:
        """The state's width per head dimension."""
        return self._module.ssm_state_size

    def no_token_state(self) -> str:
        return NO_TOKEN_STATE

    # -- the kernels' arguments ---------------------------------------------------------------

    def _read(self, inputs, name):
        value = self.argument(inputs, name)
        return value.unsqueeze(1) if self._decoding() else value

    def _write(self, name, value):
        return self.with_argument(self._kernel_inputs(), name, value[:, 0] if self._decoding() else value)

    def _steps(self, inputs: tuple[tuple, dict]) -> Any:
        """`softplus(dt + dt_bias)` per token and head, `[batch, seq, heads]`."""
        dt = self.argument(inputs, "dt")
        bias = self.argument(inputs, "bias")
        if self._decoding():  # [batch, heads, head_dim], the same on every head dimension
            dt, bias = dt[..., 0], (None if bias is None else bias[..., 0])
        if bias is not None:
            dt = dt + bias.to(dt.dtype)
        steps = F.softplus(dt)
        return steps.unsqueeze(1) if self._decoding() else steps

    def _raw_steps(self, steps: Any) -> tuple[tuple, dict]:
        """The kernel inputs with `dt` set so that `softplus(dt + dt_bias)` is `steps` (`[batch, seq, heads]`)."""
        inputs = self._kernel_inputs()
        bias = self.argument(inputs, "bias")
        raw = torch.where(steps > 20, steps, torch.log(torch.expm1(steps)))
        if self._decoding():
            raw = raw[:, 0]
            if bias is not None:
                raw = raw - bias[..., 0].to(raw.dtype)
            raw = raw[..., None].expand_as(self.argument(inputs, "dt"))
        elif bias is not None:
            raw = raw - bias.to(raw.dtype)
        return self.with_argument(inputs, "dt", raw.to(self.argument(inputs, "dt").dtype))

    def _log_decay_rate(self, inputs: tuple[tuple, dict]) -> Any:
        """`A` per head."""
        A = self.argument(inputs, "A")
        return A[:, 0, 0] if self._decoding() else A

    def _seq(self, args: tuple, kwargs: dict) -> int:
        return 1 if self._decoding() else args[0].shape[1]

    # -- values -----------------------------------------------------------------------

    @EProperty(kernel("inputs"), description="C: what each token reads the state with", unavailable=needs_torch_kernels)
    def attention_queries(self, value) -> SSDQueries:
        return self._read(value, "C")

    @attention_queries.postprocess
    def attention_queries(self, value):
        return self._write("C", value)

    @EProperty(
        kernel("inputs"), description="B: where each token writes into the state", unavailable=needs_torch_kernels
    )
    def attention_keys(self, value) -> SSDKeys:
        return self._read(value, "B")

    @attention_keys.postprocess
    def attention_keys(self, value):
        return self._write("B", value)

    @EProperty(
        kernel("inputs"), description="What each head writes into the state (x)", unavailable=needs_torch_kernels
    )
    def attention_values(self, value) -> SSDValues:
        return self._read(value, "x")

    @attention_values.postprocess
    def attention_values(self, value):
        return self._write("x", value)

    @EProperty(
        kernel("inputs"),
        description="How strongly each token writes, per head, softplus(dt + dt_bias)",
        unavailable=needs_torch_kernels,
    )
    def betas(self, value) -> Gates:
        return self._steps(value)

    @betas.postprocess
    def betas(self, value):
        return self._raw_steps(value)

    @EProperty(
        kernel("inputs"),
        description="A * dt: the log of how much of the state each token keeps, per head",
        unavailable=needs_torch_kernels,
    )
    def decays(self, value) -> Gates:
        return self._log_decay_rate(value).to(torch.float32) * self._steps(value).float()

    @decays.postprocess
    def decays(self, value):
        rate = self._log_decay_rate(self._kernel_inputs()).float()
        return self._raw_steps(value.float() / rate)

    @EProperty(
        kernel("inputs"),
        description="The state the call starts from: None on a fresh prompt, a copy of the cached state after it",
        unavailable=needs_torch_kernels,
    )
    def state_input(self, value) -> Optional[State]:  # noqa: UP045 - the layout reads typing.Optional
        # The cache's buffer is updated in place on a decode step, which would change a saved read.
        state = self.argument(value, "state")
        return None if state is None else state.clone()

    @state_input.postprocess
    def state_input(self, value):
        inputs = self._kernel_inputs()
        if not self._decoding():
            # A fresh prompt has no state to compare with: the expected one is read off the scan's inputs.
            values, keys = self.argument(inputs, "x"), self.argument(inputs, "B")
            shape = (values.shape[0], values.shape[2], values.shape[3], keys.shape[-1])
            check_state(self, "state_input", value, shape, "[batch, heads, head_dim, state_dim]")
            return self.with_argument(inputs, "state", value)
        # The decode kernel writes its new state into the buffer it is given: copy in, so the cache keeps it.
        with torch.no_grad():
            self.argument(inputs, "state").copy_(value)
        return inputs

    @EProperty(
        kernel("output"),
        select=lambda envoy: None if envoy._decoding() else 0,
        description="Each head's read of the state, h C + D * x, before the gated norm and the output projection",
        unavailable=needs_torch_kernels,
    )
    def attention_head_outputs(self, value) -> SSDHeadOutputs:
        return value.unsqueeze(1) if self._decoding() else value

    @attention_head_outputs.postprocess
    def attention_head_outputs(self, value):
        return value[:, 0] if self._decoding() else value

    @EProperty(
        lambda envoy: envoy._state_output_key(),
        select=lambda envoy: None if envoy._decoding() else 1,
        description="The state after the call's last token, which the next decode step starts from",
        unavailable=needs_torch_kernels,
    )
    def state_output(self, value) -> State:
        return value

    state = unavailable(NO_TOKEN_STATE)

    def _all_states(self) -> States:
        """The state after every token of the call, off the chunk boundaries; read-only."""
        label = type(self).KERNEL(self)
        if label == type(self).RECURRENT_KERNEL:
            op = walk(self, f"{body_path(self, label)}.{self.STEP_OUTPUT_OP}")
            return Mediator.value(f"{op.path}.output").unsqueeze(1)
        op = walk(self, f"{body_path(self, label)}.{self.BOUNDARY_STATES}")
        return Mediator.value(f"{op.path}.output")[:, 1:].clone()

    states = DerivedEProperty(
        _all_states,
        description="The state after every token of the call, read-only",
        unavailable=needs_per_token_chunks,
    )

    def state_after(self, t: int) -> Any:
        """The state after token `t` of this call, from `states`."""
        states = self.states
        seq = states.shape[1]
        if not -seq <= t < seq:
            raise IndexError(f"token {t} is outside this call's {seq} tokens")
        return states[:, t]

    def set_state_after(self, t: int, value: Any) -> None:
        """Unavailable on Mamba-2: a state written after one token would not flow into the next."""
        from .eproperty import Unavailable

        raise Unavailable(not_available(self, "set_state_after", NO_TOKEN_WRITE))
