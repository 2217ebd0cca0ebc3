"""The short-convolution mixer: a gated depthwise convolution over the last few tokens, `ShortConvolution`.

LFM2's `conv` blocks project the stream to three channel-first tensors `B`, `C`
and `x`, convolve `B * x` along the sequence with one short filter per channel,
gate the result by `C` and project it back. The prompt runs `causal_conv1d_fn`
over the whole call; a decode step runs `causal_conv1d_update`, which appends the
new column to the cached window and writes the window back into the cache's
buffer in place. The window of the last `conv_width` inputs is all the mixer
carries between calls, so it is the state the mixer serves: `state_input`
(the cached window a decode step starts from) and `state_output` (the window the
cache keeps after the call). The mixer has no queries, keys, decays or
strengths, and no kernel binds the window after each token.
"""

from __future__ import annotations

from typing import Optional

import torch
from jaxtyping import Float
from torch import Tensor

from .eproperty import DerivedEProperty, EProperty, unavailable
from .names import value_label
from .recurrent import RecurrentMixer, kernel, needs_torch_kernels
from .standard import BATCH, CHANNELS, named_layout

#: The window width axis: how many of the last inputs the convolution keeps.
CONV_WIDTH = "conv_width"

# The window of the last inputs a short convolution keeps, channel-first as the cache holds it.
ConvState = named_layout("ConvState", Float[Tensor, f"{BATCH} {CHANNELS} {CONV_WIDTH}"])

#: The prompt kernel's arguments, `causal_conv1d_fn(x, weight, bias, ...)`.
CHUNK_ARGUMENTS = {"x": 0, "weight": 1, "bias": 2}
#: The decode kernel's, `causal_conv1d_update(x, conv_state, weight, bias, ...)`.
RECURRENT_ARGUMENTS = {"x": 0, "state": 1, "weight": 2, "bias": 3}

NO_ATTENTION_TERMS = (
    "a short convolution has no queries, keys or values: it sums each channel's last few inputs "
    "with a learned filter, gated by C"
)
NO_GATES = "a short convolution has no decay or write strength: its filter weighs the last few inputs directly"
NO_TOKEN_STATE = (
    "a short convolution's state is the window of its last inputs, which its kernels never bind after each "
    "token; state_output holds the window after the call"
)
NO_HEAD_OUTPUTS = (
    "a short convolution has no heads: its output is one channel-first convolution, gated by C before "
    "the output projection"
)


class ShortConvolution(RecurrentMixer):
    """A short-convolution mixer, `model.layers[i].linear_attn`, whose state is the window of its last inputs.

    `conv_width` is the window the cache keeps (the filter's length), `channels`
    the convolved width. `state_output` is derived from the kernel's input, the
    way the kernel and the cache cut the window, and is read-only.
    """

    CHUNK_KERNEL = "causal_conv1d_fn_0"
    RECURRENT_KERNEL = "causal_conv1d_update_0"
    CHUNK_ARGUMENTS = CHUNK_ARGUMENTS
    RECURRENT_ARGUMENTS = RECURRENT_ARGUMENTS

    # -- sizes ------------------------------------------------------------------------

    @property
    def channels(self) -> int:
        """The channels the filter convolves, one filter each."""
        return self._module.conv.in_channels

    @property
    def conv_width(self) -> int:
        """How many of the last inputs the window keeps: the filter's length."""
        return self._module.conv_kernel_size

    def no_token_state(self) -> str:
        return NO_TOKEN_STATE

    def _seq(self, args: tuple, kwargs: dict) -> int:
        return args[0].shape[-1]

    # -- values -----------------------------------------------------------------------

    attention_queries = unavailable(NO_ATTENTION_TERMS)
    attention_keys = unavailable(NO_ATTENTION_TERMS)
    attention_values = unavailable(NO_ATTENTION_TERMS)
    decays = unavailable(NO_GATES)
    betas = unavailable(NO_GATES)
    attention_head_outputs = unavailable(NO_HEAD_OUTPUTS)

    @EProperty(
        kernel("inputs"),
        description="The window the call starts from: None on a prompt, a copy of the cached window on a decode step",
        unavailable=needs_torch_kernels,
    )
    def state_input(self, value) -> Optional[ConvState]:  # noqa: UP045 - the layout reads typing.Optional
        # The decode kernel writes its new window into the cache's buffer in place, which would change a saved read.
        if not self._decoding():
            return None
        return self.argument(value, "state").clone()

    @state_input.postprocess
    def state_input(self, value):
        inputs = self._kernel_inputs()
        if not self._decoding():
            raise ValueError(
                f"{value_label(self, 'state_input')}: a prompt's convolution starts from no window and takes none"
            )
        # The kernel reads and rewrites the buffer it is given: copy in, so the cache keeps the written window.
        with torch.no_grad():
            self.argument(inputs, "state").copy_(value)
        return inputs

    def _window(self) -> ConvState:
        """The window after the call: the last `conv_width` inputs, after the cached window on a decode step."""
        inputs = self._kernel_inputs()
        columns = self.argument(inputs, "x")
        if self._decoding():
            state = self.argument(inputs, "state")
            # The kernel appends the new columns to the window it is given and keeps as many as it held.
            return torch.cat([state, columns.to(state.dtype)], dim=-1)[..., -state.shape[-1] :].clone()
        return columns[..., -self.conv_width :].clone()

    state_output = DerivedEProperty(
        _window,
        description="The window after the call's last token, which the next decode step starts from; read-only",
        unavailable=needs_torch_kernels,
    )

    state = unavailable(NO_TOKEN_STATE)
    states = unavailable(NO_TOKEN_STATE)
