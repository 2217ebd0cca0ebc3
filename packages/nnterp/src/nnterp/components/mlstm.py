"""xLSTM's mLSTM layer: a matrix memory per head with exponential input gates, `Mlstm`.

Per head the layer keeps a key-by-value matrix `C`, a normalizer vector `n` and a
stabilizer `m`; each token does `C = f * C + i * k v^T` and `n = f * n + i * k`, with
the forget gate `f = sigmoid(f~)` and the input gate `i = exp(i~)` from soft-capped
pre-activations, and reads `h = (q / sqrt(d)) C / max(|(q / sqrt(d)) . n|, 1)`. The
stored `C` and `n` are scaled by `exp(-m)`, `m` the running maximum of the log gates,
which keeps them in range. The layer hands its heads-first queries, keys, values and
gate pre-activations to its backend module (native `mlstm_backend`), which picks the
chunkwise, sequence or step kernel by the call's length and returns `h` and the new
`(C, n, m)`; the layer then norms each head's `h`, gates it by `sigmoid(o)` and
projects it out. Every value is the backend's argument or result, a module boundary,
so nothing is drilled or routed. The state served is `C` as the cache stores it
(scaled by `exp(-m)`); `n` and `m` travel beside it.
"""

from __future__ import annotations

from typing import Any, Optional

import torch
import torch.nn.functional as F
from nnsight.intervention.interleaver import Mediator

from .eproperty import EProperty, unavailable
from .linear_attention import Gates, LinearQK, LinearV
from .names import value_label
from .recurrent import RecurrentMixer, State

NO_TOKEN_STATE = (
    "the mLSTM backend runs a prompt chunkwise and binds C, n and m separately, never the state after each "
    "token; state_output holds C after the call"
)

BACKEND = "mlstm_backend"


def _fresh(kwargs: dict) -> bool:
    """Whether the call starts from no state: none given, or the cache's zeros (no token leaves C at zero)."""
    state = kwargs.get("c_initial")
    return state is None or not bool(state.ne(0).any())


def _tokens_first(value: Any) -> Any:
    """A heads-first `[batch, heads, seq, ...]` tensor as `[batch, seq, heads, ...]`."""
    return value.transpose(1, 2)


def _inverse_logsigmoid(value: Any) -> Any:
    """The pre-activation whose log-sigmoid is `value`."""
    return value - torch.log(-torch.expm1(value))


class Mlstm(RecurrentMixer):
    """xLSTM's mLSTM layer, `model.layers[i].linear_attn`, read at its backend module's call."""

    @classmethod
    def kernel_labels(cls) -> tuple[str, ...]:
        """None: the kernels run inside the backend module, whose boundary serves every value."""
        return ()

    @staticmethod
    def KERNEL(envoy: Any) -> str:
        """The backend module: one call on a prompt and on a decode step alike."""
        return BACKEND

    # -- sizes ------------------------------------------------------------------------

    @property
    def heads(self) -> int:
        """The layer's heads, one matrix memory each."""
        return self._module.config.num_heads

    @property
    def key_dim(self) -> int:
        """The width of one head's queries and keys."""
        return self._module.qk_dim // self.heads

    @property
    def value_dim(self) -> int:
        """The width of one head's values and outputs."""
        return self._module.v_dim // self.heads

    def no_token_state(self) -> str:
        return NO_TOKEN_STATE

    # -- values -----------------------------------------------------------------------

    @EProperty(f"{BACKEND}.inputs", select="query", description="The queries each head reads its memory with")
    def attention_queries(self, value) -> LinearQK:
        return _tokens_first(value)

    @attention_queries.postprocess
    def attention_queries(self, value):
        return _tokens_first(value)

    @EProperty(f"{BACKEND}.inputs", select="key", description="The keys each token writes its value along")
    def attention_keys(self, value) -> LinearQK:
        return _tokens_first(value)

    @attention_keys.postprocess
    def attention_keys(self, value):
        return _tokens_first(value)

    @EProperty(f"{BACKEND}.inputs", select="value", description="The values each token writes into the memory")
    def attention_values(self, value) -> LinearV:
        return _tokens_first(value)

    @attention_values.postprocess
    def attention_values(self, value):
        return _tokens_first(value)

    @EProperty(
        f"{BACKEND}.inputs",
        select="fgate",
        description="The log forget gate, log sigmoid(f), how much of the memory each token keeps; a computed copy, so assign it",
    )
    def decays(self, value) -> Gates:
        return _tokens_first(F.logsigmoid(value))

    @decays.postprocess
    def decays(self, value):
        return _tokens_first(_inverse_logsigmoid(value))

    @EProperty(
        f"{BACKEND}.inputs",
        select="igate",
        description="The log input gate i, each token's write strength exp(i) before the stabilizer",
    )
    def betas(self, value) -> Gates:
        return _tokens_first(value)

    @betas.postprocess
    def betas(self, value):
        return _tokens_first(value)

    @EProperty(
        f"{BACKEND}.inputs",
        description="The memory C the call starts from, scaled by exp(-m): None on a fresh prompt, a copy otherwise",
    )
    def state_input(self, value) -> Optional[State]:  # noqa: UP045 - the layout reads typing.Optional
        # The model copies each call's new state into the cache's buffers in place, which would change a saved read.
        _, kwargs = value
        return None if _fresh(kwargs) else kwargs["c_initial"].clone()

    @state_input.postprocess
    def state_input(self, value):
        args, kwargs = Mediator.value(f"{getattr(self, BACKEND).path}.input")
        if _fresh(kwargs):
            raise ValueError(f"{value_label(self, 'state_input')}: a fresh prompt starts from zeros and takes no state")
        return args, {**kwargs, "c_initial": value}

    @state_input.transform
    def state_input(self, view, raw):
        args, kwargs = raw
        return raw if view is None else (args, {**kwargs, "c_initial": view})

    @EProperty(
        f"{BACKEND}.output",
        select=0,
        description="Each head's read of its memory, before the head norm, the output gate and out_proj",
    )
    def attention_head_outputs(self, value) -> LinearV:
        return _tokens_first(value)

    @attention_head_outputs.postprocess
    def attention_head_outputs(self, value):
        return _tokens_first(value)

    @EProperty(
        f"{BACKEND}.output",
        description="The memory C after the call's last token, scaled by exp(-m), as the cache receives it",
    )
    def state_output(self, value) -> State:
        return value[1][0]

    @state_output.postprocess
    def state_output(self, value):
        h, (_, normalizer, stabilizer) = Mediator.value(f"{getattr(self, BACKEND).path}.output")
        return h, (value, normalizer, stabilizer)

    @state_output.transform
    def state_output(self, view, raw):
        h, (_, normalizer, stabilizer) = raw
        return h, (view, normalizer, stabilizer)

    state = unavailable(NO_TOKEN_STATE)
    states = unavailable(NO_TOKEN_STATE)


__all__ = ["NO_TOKEN_STATE", "Mlstm"]
