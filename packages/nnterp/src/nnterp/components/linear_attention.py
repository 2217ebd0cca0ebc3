"""The gated DeltaNet mixer: linear attention through a recurrent state, `LinearAttention`.

Each head keeps a `[key_dim, value_dim]` matrix. A token decays it by `exp(g)`,
writes its key/value pair in with strength `beta` (the delta rule: only the part of
the value the state does not already predict), and its query reads the state. The
values are the kernel call's arguments and results, sequence axis first:
`kernel(q, k, v, g=..., beta=..., initial_state=...) -> (head outputs, final state)`.
"""

from __future__ import annotations

from typing import Any, Optional

from jaxtyping import Float
from torch import Tensor

from .eproperty import DerivedEProperty, EProperty
from .recurrent import (
    RecurrentMixer,
    State,
    States,
    check_state,
    kernel,
    needs_recurrent_routing,
    needs_torch_kernels,
)
from .standard import BATCH, KEY_DIM, MIXER_HEADS, SEQ, VALUE_DIM, named_layout

# The queries or keys the delta rule receives, one per token and value head.
LinearQK = named_layout("LinearQK", Float[Tensor, f"{BATCH} {SEQ} {MIXER_HEADS} {KEY_DIM}"])
# The values the delta rule receives, or each head's read of the state.
LinearV = named_layout("LinearV", Float[Tensor, f"{BATCH} {SEQ} {MIXER_HEADS} {VALUE_DIM}"])
# One gate per token and head.
Gates = named_layout("Gates", Float[Tensor, f"{BATCH} {SEQ} {MIXER_HEADS}"])
# One gate per token, head and key channel (Kimi-Linear's decay).
ChannelGates = named_layout("ChannelGates", Float[Tensor, f"{BATCH} {SEQ} {MIXER_HEADS} {KEY_DIM}"])

#: Where the delta rule kernels take each argument: a keyword, else this position.
ARGUMENTS = {"query": 0, "key": 1, "value": 2, "g": 3, "beta": 4}


def argument(inputs: tuple[tuple, dict], name: str) -> Any:
    """The kernel argument `name` of a call's `(args, kwargs)`."""
    args, kwargs = inputs
    if name in kwargs:
        return kwargs[name]
    position = ARGUMENTS.get(name)
    if position is not None and position < len(args):
        return args[position]
    return None


def with_argument(inputs: tuple[tuple, dict], name: str, value: Any) -> tuple[tuple, dict]:
    """`inputs` with kernel argument `name` replaced by `value`."""
    args, kwargs = inputs
    position = ARGUMENTS.get(name)
    if name in kwargs or position is None or position >= len(args):
        return args, {**kwargs, name: value}
    return (*args[:position], value, *args[position + 1 :]), kwargs


def _heads(inputs: tuple[tuple, dict]) -> int:
    return argument(inputs, "value").shape[2]


def grouped(inputs: tuple[tuple, dict], name: str) -> Any:
    """Query or key `name` repeated up to the value heads, as the kernel repeats it."""
    tensor = argument(inputs, name)
    heads = _heads(inputs)
    if tensor.shape[2] == heads:
        return tensor
    return tensor.repeat_interleave(heads // tensor.shape[2], dim=2)


def with_grouped(inputs: tuple[tuple, dict], name: str, value: Any) -> tuple[tuple, dict]:
    """`inputs` with `name` set to `value` (value heads wide) and its partner repeated to match."""
    partner = "key" if name == "query" else "query"
    return with_argument(with_argument(inputs, partner, grouped(inputs, partner)), name, value)


class LinearAttention(RecurrentMixer):
    """A gated DeltaNet mixer, `model.layers[i].linear_attn`.

    The prompt runs `torch_chunk_gated_delta_rule`, a decode step
    `torch_recurrent_gated_delta_rule`; routed, both names run the token-by-token
    loop, whose `last_recurrent_state` after each token's update (its fourth binding)
    is the state per token. Queries and keys are served repeated up to the value
    heads (the kernel's grouping), and a write hands the kernel both repeated.
    """

    CHUNK_KERNEL = "torch_chunk_gated_delta_rule_0"
    RECURRENT_KERNEL = "torch_recurrent_gated_delta_rule_0"
    STATE_OP = "last_recurrent_state_3"
    PROMPT_LOOP = "torch_recurrent_gated_delta_rule_0"

    # -- sizes ------------------------------------------------------------------------

    @property
    def heads(self) -> int:
        """The mixer's heads: its value heads, which the queries and keys are repeated up to."""
        return self._module.num_v_heads

    @property
    def key_dim(self) -> int:
        """The width of one head's queries and keys."""
        return self._module.head_k_dim

    @property
    def value_dim(self) -> int:
        """The width of one head's values and outputs."""
        return self._module.head_v_dim

    # -- values -----------------------------------------------------------------------

    @EProperty(
        kernel("inputs"),
        description="The queries the delta rule receives, before its l2-norm and scaling",
        unavailable=needs_torch_kernels,
    )
    def attention_queries(self, value) -> LinearQK:
        return grouped(value, "query")

    @attention_queries.postprocess
    def attention_queries(self, value):
        return with_grouped(self._kernel_inputs(), "query", value)

    @attention_queries.transform
    def attention_queries(self, view, raw):
        return with_grouped(raw, "query", view)

    @EProperty(
        kernel("inputs"),
        description="The keys the delta rule receives, before its l2-norm",
        unavailable=needs_torch_kernels,
    )
    def attention_keys(self, value) -> LinearQK:
        return grouped(value, "key")

    @attention_keys.postprocess
    def attention_keys(self, value):
        return with_grouped(self._kernel_inputs(), "key", value)

    @attention_keys.transform
    def attention_keys(self, view, raw):
        return with_grouped(raw, "key", view)

    @EProperty(
        kernel("inputs"),
        select=ARGUMENTS["value"],
        description="The values the delta rule receives",
        unavailable=needs_torch_kernels,
    )
    def attention_values(self, value) -> LinearV:
        return value

    @EProperty(
        kernel("inputs"),
        select="g",
        description="The log of how much of the state each token keeps, non-positive",
        unavailable=needs_torch_kernels,
    )
    def decays(self, value) -> Gates:
        return value

    @EProperty(
        kernel("inputs"),
        select="beta",
        description="How strongly each token writes its key/value pair into the state",
        unavailable=needs_torch_kernels,
    )
    def betas(self, value) -> Gates:
        return value

    @EProperty(
        kernel("inputs"),
        description="The state the call starts from: None on a fresh prompt, a copy of the cached state after it",
        unavailable=needs_torch_kernels,
    )
    def state_input(self, value) -> Optional[State]:  # noqa: UP045 - the layout reads typing.Optional
        # The cache copies each call's final state into one buffer, which this call
        # receives; serving the buffer would let the next step overwrite a saved read.
        state = argument(value, "initial_state")
        return None if state is None else state.clone()

    @state_input.postprocess
    def state_input(self, value):
        inputs = self._kernel_inputs()
        if argument(inputs, "initial_state") is None:
            # A fresh prompt has no state to compare with: the expected one is read off the kernel's inputs.
            queries, values = argument(inputs, "query"), argument(inputs, "value")
            shape = (values.shape[0], values.shape[2], queries.shape[-1], values.shape[-1])
            check_state(self, "state_input", value, shape, "[batch, heads, key_dim, value_dim]")
        return with_argument(inputs, "initial_state", value)

    @state_input.transform
    def state_input(self, view, raw):
        return raw if view is None else with_argument(raw, "initial_state", view)

    @EProperty(
        kernel("output"),
        select=0,
        description="Each head's read of the state, before the gated norm and the output projection",
        unavailable=needs_torch_kernels,
    )
    def attention_head_outputs(self, value) -> LinearV:
        return value

    @EProperty(
        kernel("output"),
        select=1,
        description="The state after the call's last token, which the next decode step starts from",
        unavailable=needs_torch_kernels,
    )
    def state_output(self, value) -> State:
        return value

    @EProperty(
        lambda envoy: envoy._token_state_op(),
        description="The state after one token, one occurrence per token for tracer.iter to read or write",
        unavailable=needs_recurrent_routing,
    )
    def state(self, value) -> State:
        return value

    def _all_states(self) -> States:
        """The state after every token of the call, stacked on axis 1; read-only."""
        return self._states()

    states = DerivedEProperty(
        _all_states,
        description="The state after every token of the call, read-only",
        unavailable=needs_recurrent_routing,
    )
