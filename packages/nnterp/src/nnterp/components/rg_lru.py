"""Griffin's recurrent block: a gated convolution and a real-gated linear recurrent unit (RG-LRU), `RgLru`.

The block (RecurrentGemma's `RecurrentGemmaRecurrentBlock`, served as `linear_attn`)
projects the normed stream twice: one branch through a GELU (the gate `y`), the other
through a short causal convolution into the RG-LRU. Per channel the RG-LRU runs the
diagonal recurrence `h_t = a_t * h_{t-1} + x'_t`, with the decay
`a_t = exp(-8 * r_t * softplus(lambda))` from a recurrence gate `r_t` and the written
input `x'_t = sqrt(1 - a_t ** 2) * i_t * x_t` from an input gate `i_t`, and its output
is the state itself. The block returns `linear_out(h * y)`. A call whose first
position is 0 starts the recurrence afresh (`a` is zeroed there), whatever state it
is handed. The scan is one method of the unit, `_rnn_scan`, in pure torch on a prompt
and on a decode step alike, so every value is read at that call and no routing is
needed. The convolution's window (`conv1d_state`) is the block's other state; it is
kept on the module and not served.
"""

from __future__ import annotations

from typing import Any, Optional

import torch
from jaxtyping import Float
from nnsight.intervention.interleaver import Mediator
from torch import Tensor

from .eproperty import DerivedEProperty, EProperty, Unavailable, unavailable
from .names import not_available, value_label
from .own_attention import always
from .recurrent import RecurrentMixer, walk
from .standard import BATCH, CHANNELS, SEQ, named_layout

# One number per token and channel: the scan's input, its decay, its output.
LruChannels = named_layout("LruChannels", Float[Tensor, f"{BATCH} {SEQ} {CHANNELS}"])
# The state: one number per channel.
LruState = named_layout("LruState", Float[Tensor, f"{BATCH} {CHANNELS}"])
# That state after every token.
LruStates = named_layout("LruStates", Float[Tensor, f"{BATCH} {SEQ} {CHANNELS}"])

#: The scan call inside the unit's forward, reached from the block.
SCAN = "rg_lru.source.self__rnn_scan_0"

NO_QUERIES_KEYS = (
    "an RG-LRU has no queries or keys: each channel runs its own diagonal recurrence, and its output is the state"
)
NO_BETAS = (
    "the RG-LRU folds its input gate and its sqrt(1 - a^2) normalization into what it writes: attention_values "
    "is the written input, gates applied"
)
NO_TOKEN_STATE = (
    "the RG-LRU's output is its state after every token, served whole as states (and state_after(t)); the scan "
    "serves no per-token occurrence for tracer.iter to read or write"
)
NO_TOKEN_WRITE = (
    "the scan has computed every token's state by the time its output is read, so a state written after one "
    "token would not flow into the next; assign state_input to change where a call starts"
)


def _starts_afresh(inputs: tuple[tuple, dict]) -> bool:
    """Whether the scan ignores the state it is handed: none given, or the call starts at position 0."""
    _, kwargs = inputs
    return kwargs.get("recurrent_states") is None or bool(kwargs["reset"][:, 0].all())


class RgLru(RecurrentMixer):
    """Griffin's recurrent block, `model.layers[i].linear_attn`, read at its RG-LRU's scan.

    `channels` is the recurrence's width (`lru_width`). The scan's output is the state
    after every token, so `attention_head_outputs` (writable) and `states` (read-only)
    are the same tensor.
    """

    @classmethod
    def kernel_labels(cls) -> tuple[str, ...]:
        """None: the scan is a method of the unit, pure torch on every path, with nothing to route."""
        return ()

    @staticmethod
    def KERNEL(envoy: Any) -> str:
        """The scan's location: one call on a prompt and on a decode step alike."""
        return SCAN

    # -- sizes ------------------------------------------------------------------------

    @property
    def channels(self) -> int:
        """The recurrence's width, one state number per channel."""
        return self._module.lru_width

    def no_token_state(self) -> str:
        return NO_TOKEN_STATE

    # -- values -----------------------------------------------------------------------

    attention_queries = unavailable(NO_QUERIES_KEYS)
    attention_keys = unavailable(NO_QUERIES_KEYS)
    betas = unavailable(NO_BETAS)

    @EProperty(
        f"{SCAN}.inputs",
        select="hidden_states",
        description="What each token writes into the state, x after the input gate and the sqrt(1 - a^2) scale",
        unavailable=always,
    )
    def attention_values(self, value) -> LruChannels:
        return value

    @EProperty(
        f"{SCAN}.inputs",
        select="recurrent_gate",
        description="The log decay per token and channel, log a = -8 * r * softplus(lambda); a computed copy, so assign it",
        unavailable=always,
    )
    def decays(self, value) -> LruChannels:
        return torch.log(value)

    @decays.postprocess
    def decays(self, value):
        return torch.exp(value)

    @EProperty(
        f"{SCAN}.inputs",
        description="The state the call starts from: None where the call starts at position 0, a copy otherwise",
        unavailable=always,
    )
    def state_input(self, value) -> Optional[LruState]:  # noqa: UP045 - the layout reads typing.Optional
        # The unit keeps the state it is handed until the scan replaces it, so a saved read is a copy.
        return None if _starts_afresh(value) else value[1]["recurrent_states"].clone()

    @state_input.postprocess
    def state_input(self, value):
        args, kwargs = Mediator.value(f"{walk(self, SCAN).path}.input")
        if _starts_afresh((args, kwargs)):
            raise ValueError(f"{value_label(self, 'state_input')}: a call that starts at position 0 starts from zeros")
        return args, {**kwargs, "recurrent_states": value}

    @state_input.transform
    def state_input(self, view, raw):
        args, kwargs = raw
        return raw if view is None else (args, {**kwargs, "recurrent_states": view})

    @EProperty(
        f"{SCAN}.output",
        select=0,
        description="The recurrence's output h, the state after each token, before the GELU gate and linear_out",
        unavailable=always,
    )
    def attention_head_outputs(self, value) -> LruChannels:
        return value

    @EProperty(
        f"{SCAN}.output",
        select=1,
        description="The state after the call's last token, as the unit keeps it for the next call",
        unavailable=always,
    )
    def state_output(self, value) -> LruState:
        return value

    state = unavailable(NO_TOKEN_STATE)

    def _all_states(self) -> LruStates:
        """The state after every token of the call: the scan's output; read-only."""
        return self.attention_head_outputs

    states = DerivedEProperty(
        _all_states, description="The state after every token of the call, read-only", unavailable=always
    )

    def state_after(self, t: int) -> Any:
        """The state after token `t` of this call, from `states`."""
        states = self.states
        seq = states.shape[1]
        if not isinstance(t, int) or isinstance(t, bool):
            raise TypeError(f"a token position is an int, got {type(t).__name__}")
        if not -seq <= t < seq:
            raise IndexError(f"token {t} is outside this call's {seq} tokens")
        return states[:, t]

    def set_state_after(self, t: int, value: Any) -> None:
        """Unavailable on an RG-LRU: a state written after one token would not flow into the next."""
        raise Unavailable(not_available(self, "set_state_after", NO_TOKEN_WRITE))


__all__ = [
    "NO_BETAS",
    "NO_QUERIES_KEYS",
    "NO_TOKEN_STATE",
    "NO_TOKEN_WRITE",
    "LruChannels",
    "LruState",
    "LruStates",
    "RgLru",
]
