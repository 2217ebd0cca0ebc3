"""RWKV-4's mixers: the time-mix, a per-channel weighted average over the past, and the channel-mix MLP.

The time-mix (`TimeMix`, `linear_attn`) blends each token's normed stream with the
previous token's (the token shift), projects the blends to a key `k`, a value `v`
and a receptance `r`, and hands `k` and `v` to `rwkv_linear_attention`. Per channel
`c` that kernel keeps a running numerator and denominator over the tokens so far, each
earlier token `i` weighed by `exp(k_i - (t - 1 - i) * exp(w))` and the current one by
`exp(k_t + u)`, so its output `wkv` is a weighted average of the values with the
learned per-channel decay `w` (`time_decay`) and bonus `u` (`time_first`). The
time-mix returns `output(sigmoid(r) * wkv)`. The state it carries between calls is
the numerator, the denominator and the shared exponent that keeps them in range, one
number each per channel: the kernel's `state` argument and its second result. The
same Python function runs a prompt and a decode step (it reaches the compiled CUDA
kernel from inside, on a GPU with `kernels` installed), and every value here is an
argument or a result of that call, so no routing or pure-torch kernel is needed.

The channel-mix (`ChannelMix`, `mlp`) is a plain MLP on a token-shifted input:
`sigmoid(receptance(x')) * down_proj(relu(up_proj(x''))**2)`, with `x'` and `x''`
two blends of the token and the previous one.
"""

from __future__ import annotations

from typing import Any, Optional

import torch
from jaxtyping import Float
from torch import Tensor

from .eproperty import EProperty, unavailable
from .mlp import Mlp, Neurons
from .names import value_label
from .own_attention import always
from .recurrent import RecurrentMixer, kernel
from .standard import BATCH, CHANNELS, SEQ, named_layout

#: The state's last axis: the numerator, the denominator and their shared exponent.
WKV_TERMS = "wkv_terms"

# One number per token and channel: the kernel's keys, values and output.
WkvChannels = named_layout("WkvChannels", Float[Tensor, f"{BATCH} {SEQ} {CHANNELS}"])
# The log decay of every channel, the same on every token.
WkvDecays = named_layout("WkvDecays", Float[Tensor, f"{CHANNELS}"])
# The kernel's state: per channel the numerator, the denominator and their exponent, as the CUDA kernel stacks them.
WkvState = named_layout("WkvState", Float[Tensor, f"{BATCH} {CHANNELS} {WKV_TERMS}"])

NO_QUERIES = (
    "RWKV's time-mix has no queries: every channel reads its own weighted average of the values, and the "
    "receptance sigmoid(r) gates that average after the kernel"
)
NO_BETAS = (
    "RWKV's time-mix has no write strength: every token writes its value with weight exp(k); the per-channel "
    "bonus u (time_first) weighs the current token in its own output only"
)
NO_TOKEN_STATE = (
    "the wkv kernel binds its state after each token as three separate tensors (numerator, denominator and "
    "their exponent), which no single value addresses; state_output holds them after the call"
)


def _stacked(state: Any) -> Any:
    """The kernel's `(numerator, denominator, exponent)` as one `[batch, channels, 3]` tensor, or `None`."""
    return None if state is None else torch.stack(tuple(state), dim=-1)


def _fresh(state: Any) -> bool:
    """Whether the kernel's state is none or the zeros a fresh prompt starts from (no token leaves a zero denominator)."""
    return state is None or not bool(state[1].ne(0).any())


class TimeMix(RecurrentMixer):
    """RWKV's time-mix, `model.layers[i].linear_attn`, read at its `rwkv_linear_attention` call.

    `channels` is the kernel's width (`attention_hidden_size`). A fresh prompt's state
    has a zero denominator (the model starts every state from zeros), which no token
    leaves, so `state_input` is `None` there.
    """

    CHUNK_KERNEL = "rwkv_linear_attention_0"
    RECURRENT_KERNEL = "rwkv_linear_attention_0"

    @staticmethod
    def KERNEL(envoy: Any) -> str:
        """The one kernel label: a prompt and a decode step call the same function."""
        return type(envoy).CHUNK_KERNEL

    # -- sizes ------------------------------------------------------------------------

    @property
    def channels(self) -> int:
        """The kernel's width, one state per channel."""
        return self._module.attention_hidden_size

    @property
    def wkv_terms(self) -> int:
        """The numbers a channel's state holds: numerator, denominator, exponent."""
        return 3

    def no_token_state(self) -> str:
        return NO_TOKEN_STATE

    # -- values -----------------------------------------------------------------------

    attention_queries = unavailable(NO_QUERIES)
    betas = unavailable(NO_BETAS)

    @EProperty(
        kernel("inputs"),
        select=2,
        description="The keys k: how much each token weighs in every channel's average",
        unavailable=always,
    )
    def attention_keys(self, value) -> WkvChannels:
        return value

    @EProperty(
        kernel("inputs"),
        select=3,
        description="The values v: what each token writes into every channel's average",
        unavailable=always,
    )
    def attention_values(self, value) -> WkvChannels:
        return value

    @EProperty(
        kernel("inputs"),
        select=0,
        description="The log decay per channel, -exp(time_decay), the same on every token; a computed copy, so assign it",
        unavailable=always,
    )
    def decays(self, value) -> WkvDecays:
        return -torch.exp(value)

    @decays.postprocess
    def decays(self, value):
        return torch.log(-value)

    @EProperty(
        kernel("inputs"),
        select="state",
        description="The state the call starts from: None on a fresh prompt, a copy of the cached state otherwise",
        unavailable=always,
    )
    def state_input(self, value) -> Optional[WkvState]:  # noqa: UP045 - the layout reads typing.Optional
        return None if _fresh(value) else _stacked(value)

    @state_input.postprocess
    def state_input(self, value):
        _, kwargs = self._kernel_inputs()
        if _fresh(kwargs.get("state")):
            raise ValueError(f"{value_label(self, 'state_input')}: a fresh prompt starts from zeros and takes no state")
        return tuple(value.unbind(-1))

    @state_input.transform
    def state_input(self, view, raw):
        return raw if view is None else tuple(view.unbind(-1))

    @EProperty(
        kernel("output"),
        select=0,
        description="The kernel's output wkv, each channel's weighted average of the values, before the receptance gate",
        unavailable=always,
    )
    def attention_head_outputs(self, value) -> WkvChannels:
        return value

    @EProperty(
        kernel("output"),
        select=1,
        description="The state after the call's last token, as the cache receives it; None without a cache",
        unavailable=always,
    )
    def state_output(self, value) -> Optional[WkvState]:  # noqa: UP045 - the layout reads typing.Optional
        return _stacked(value)

    @state_output.postprocess
    def state_output(self, value):
        return list(value.unbind(-1))

    @state_output.transform
    def state_output(self, view, raw):
        return raw if view is None else list(view.unbind(-1))

    state = unavailable(NO_TOKEN_STATE)
    states = unavailable(NO_TOKEN_STATE)


class ChannelMix(Mlp):
    """RWKV's channel-mix, `model.layers[i].mlp`: a squared-ReLU MLP whose output a receptance gates.

    `up_proj` and `down_proj` are the native `key` and `value` projections; the
    activation is a function call, read at the square.
    """

    @EProperty("source.torch_square_0.output", description="The squared ReLU of the up projection", unavailable=always)
    def mlp_activation(self, value) -> Neurons:
        return value


__all__ = [
    "NO_BETAS",
    "NO_QUERIES",
    "NO_TOKEN_STATE",
    "WKV_TERMS",
    "ChannelMix",
    "TimeMix",
    "WkvChannels",
    "WkvDecays",
    "WkvState",
]
