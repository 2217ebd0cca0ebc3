"""A Mamba-1 mixer that runs one selective scan per head in a Python loop, `HeadedScan` (Zamba's).

The mixer splits its channels into heads, each with its own `B`, `C`, step projection
and `A`, and runs one selective scan per head, so one kernel label fires once per head.
Its values are read in the forward around that loop, where every head's tensor is bound
at once: `x` after the convolution, `B` and `C` from the split, the step size and `A`
as the loop hands them to the kernels, and after the loop the concatenated output
(after the `D` skip and the `silu(z)` gate the kernels apply) and the stacked final
state. Channels are laid head after head, as the output projection takes them; `B` and
`C` have one group per head. The per-token state is not served, since its binding
fires once per head.
"""

from __future__ import annotations

from typing import Any, Optional

import torch
import torch.nn.functional as F
from nnsight.intervention.interleaver import Mediator

from .eproperty import DerivedEProperty, EProperty, unavailable
from .names import value_label
from .own_attention import always
from .recurrent import RecurrentMixer, interleaving, per_call
from .selective_scan import ScanDecays, ScanQK, ScanState, ScanSteps, ScanValues, SelectiveScan

NO_TOKEN_STATE = (
    "this mixer runs one selective scan per head in a Python loop, so its per-token state binding fires for "
    "every head in turn and is not served; state_output holds every head's state after the call"
)


def channels_last(value: Any) -> Any:
    """A heads-first `[heads, batch, head_dim, seq]` tensor as `[batch, seq, heads * head_dim]`."""
    heads, batch, width, seq = value.shape
    return value.permute(1, 3, 0, 2).reshape(batch, seq, heads * width)


def heads_first(value: Any, heads: int) -> Any:
    """`channels_last` undone."""
    batch, seq, channels = value.shape
    return value.reshape(batch, seq, heads, channels // heads).permute(2, 0, 3, 1).contiguous()


def _split_group(name: str, select: int, description: str) -> EProperty:
    """`B` or `C` as the split hands it to the loop, `[heads, batch, seq, state_dim]`, served tokens first."""

    def grouped(self, value) -> ScanQK:
        return value.permute(1, 2, 0, 3)

    grouped.__name__ = name
    prop = EProperty(
        lambda envoy: envoy._at(envoy.SPLIT_OP), select=select, description=description, unavailable=always
    )(grouped)

    @prop.postprocess
    def grouped(self, value):
        return value.permute(2, 0, 1, 3)

    return prop


class WritableState(DerivedEProperty):
    """A value read off the call's cached state, which `store(envoy, value)` writes into before the kernels run."""

    def __init__(self, compute, store, description=None, unavailable=None) -> None:
        super().__init__(compute, description=description, unavailable=unavailable)
        self._store = store

    def __set__(self, obj: Any, value: Any) -> None:
        self._check(obj)
        self._store(obj, value)


class HeadedScan(RecurrentMixer):
    """A Mamba-1 mixer with one scan per head, `model.layers[i].linear_attn`, read around its per-head loop.

    A family names the bindings of the module's forward the values are read at:
    `VALUES_OP` (x after the convolution), `SPLIT_OP` (the split into x, B and C),
    `STEP_SIZE_OP` and `STEP_BIAS_OP` (dt and its bias), `DECAY_RATE_OP` (A),
    `CACHED_STATE_OP` (the cache's state on a decode step), `PROMPT_OUTPUTS_OP` and
    `STEP_OUTPUTS_OP` (every head's output, concatenated, on a prompt and on a decode
    step) and `FINAL_STATES_OP` (every head's final state, stacked, on a prompt);
    `HEADS` names the module attribute holding the head count.
    """

    CHUNK_KERNEL = "mamba_selective_scan_0"
    RECURRENT_KERNEL = "mamba_selective_state_update_0"
    VALUES_OP = "hidden_states_B_C_7"
    SPLIT_OP = "torch_split_0"
    STEP_SIZE_OP = "time_step_0"
    STEP_BIAS_OP = "time_proj_bias_0"
    DECAY_RATE_OP = "A_0"
    CACHED_STATE_OP = "recurrent_state_0"
    PROMPT_OUTPUTS_OP = "torch_cat_1"
    STEP_OUTPUTS_OP = "torch_cat_0"
    FINAL_STATES_OP = "torch_stack_0"
    HEADS = "n_mamba_heads"

    # -- sizes ------------------------------------------------------------------------

    # Every head's channels side by side make the inner width, sized as a one-scan mixer's.
    channels = SelectiveScan.channels
    state_dim = SelectiveScan.state_dim

    @property
    def groups(self) -> int:
        """One `B` and `C` per head."""
        return getattr(self._module, self.HEADS)

    def no_token_state(self) -> str:
        return NO_TOKEN_STATE

    # -- the call -----------------------------------------------------------------------

    def _bound(self, op: str) -> Any:
        """The value binding `op` of the module's forward holds."""
        return Mediator.value(f"{getattr(self.source, op).path}.output")

    def _call(self) -> tuple[bool, Any]:
        """(whether this call decodes, the cache's state tensor it updates in place or None), once per call.

        Read before any value of the call, so the binding of the cached state is
        reached before the forward passes it.
        """
        if not interleaving(self):
            return False, None
        decoding = self._decoding()

        def compute() -> Any:
            return self._bound(self.CACHED_STATE_OP) if decoding else None

        return decoding, per_call(self, "cached", compute)

    def _at(self, op: str) -> str:
        self._call()
        return f"source.{op}.output"

    # -- values -----------------------------------------------------------------------

    @EProperty(
        lambda envoy: envoy._at(envoy.VALUES_OP),
        description="What each channel writes (x), after the convolution and the activation, heads side by side",
        unavailable=always,
    )
    def attention_values(self, value) -> ScanValues:
        return channels_last(value)

    @attention_values.postprocess
    def attention_values(self, value):
        return heads_first(value, self.groups)

    @attention_values.transform
    def attention_values(self, view, raw):
        return heads_first(view, self.groups)

    attention_queries = _split_group(
        "attention_queries", 2, "C: what each token reads the state with, one group per head"
    )
    attention_keys = _split_group("attention_keys", 1, "B: where each token writes into the state, one group per head")

    def _steps(self) -> Any:
        """softplus(dt + dt_bias) heads first, and A, read once per call (both derived values use them)."""
        self._call()

        def compute() -> Any:
            step = self._bound(self.STEP_SIZE_OP)
            bias = self._bound(self.STEP_BIAS_OP)
            if bias is not None:
                step = step + bias.to(step.dtype)[:, None, :, None]
            return F.softplus(step), self._bound(self.DECAY_RATE_OP)

        return per_call(self, "steps", compute)

    def _betas(self) -> ScanSteps:
        """softplus(dt + dt_bias), each token's step size per channel; read-only."""
        steps, _ = self._steps()
        return channels_last(steps)

    betas = DerivedEProperty(
        _betas, description="Each token's step size per channel, softplus(dt + dt_bias)", unavailable=always
    )

    def _decays(self) -> ScanDecays:
        """dt * A, the log decay per token, channel and state dimension; read-only."""
        steps, rate = self._steps()
        return channels_last(steps)[..., None] * rate.reshape(-1, rate.shape[-1])

    decays = DerivedEProperty(
        _decays, description="The log decay per channel and state dimension, dt * A", unavailable=always
    )

    def _state_input(self) -> Optional[ScanState]:  # noqa: UP045 - the layout reads typing.Optional
        """A decode step's cached state, a copy; None on a prompt, whose scans start from zeros."""
        decoding, cached = self._call()
        # The kernels update the cache's tensor in place, which would change a saved read.
        return cached.flatten(1, 2).clone() if decoding else None

    def _write_state_input(self, value: Any) -> None:
        decoding, cached = self._call()
        if not decoding:
            raise ValueError(f"{value_label(self, 'state_input')}: a prompt's scans start from zeros and take no state")
        current = cached.flatten(1, 2)
        if value.shape != current.shape or value.dtype != current.dtype:
            raise ValueError(
                f"{value_label(self, 'state_input')} takes a {current.dtype} tensor of shape {tuple(current.shape)}, "
                f"got {value.dtype} {tuple(value.shape)}"
            )
        # The kernels update the tensor the cache keeps, in place, so the write goes into it.
        with torch.no_grad():
            cached.copy_(value.unflatten(1, cached.shape[1:3]))

    state_input = WritableState(
        _state_input,
        _write_state_input,
        description="The state the call starts from: None on a prompt, a copy of the cached state on a decode step",
        unavailable=always,
    )

    @EProperty(
        lambda envoy: envoy._at(envoy.STEP_OUTPUTS_OP if envoy._decoding() else envoy.PROMPT_OUTPUTS_OP),
        description="The scan outputs y of every head, after the D skip and the silu(z) gate, before out_proj",
        unavailable=always,
    )
    def attention_head_outputs(self, value) -> ScanValues:
        return value.transpose(1, 2)

    @attention_head_outputs.postprocess
    def attention_head_outputs(self, value):
        return value.transpose(1, 2)

    def _state_output(self) -> ScanState:
        """Every head's state after the call's last token, as the cache receives it; read-only."""
        decoding, cached = self._call()
        if decoding:
            self._bound(self.STEP_OUTPUTS_OP)  # after every head's in-place update
            return cached.flatten(1, 2).clone()
        return self._bound(self.FINAL_STATES_OP).flatten(1, 2).clone()

    state_output = DerivedEProperty(
        _state_output,
        description="The state after the call's last token, every head's channels side by side; read-only",
        unavailable=always,
    )

    state = unavailable(NO_TOKEN_STATE)
    states = unavailable(NO_TOKEN_STATE)


__all__ = ["NO_TOKEN_STATE", "HeadedScan", "WritableState", "channels_last", "heads_first"]
