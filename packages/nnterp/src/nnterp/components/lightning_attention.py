"""Lightning attention (MiniMax): a linear attention with a fixed decay per head, `LightningAttention`.

Each head keeps a `[head_dim, head_dim]` state, the decayed sum of `k^T v` over the
tokens so far. A token decays it by `exp(-slope_rate)`, a constant of the head (set
by its index and the block's depth, never by the token), adds its own `k^T v` at
full strength, and its query reads the state. The queries, keys and values are one
projection after a SiLU, split per head. The recurrence is written out in the
mixer's forward, not handed to a kernel function: a prompt runs it a block of
`block_size` tokens at a time (within a block as a decay-masked attention, between
blocks through the state), a call over a cached state runs it token by token. The
forward returns the state after its last token beside its output, and the cache
keeps that tensor for the next call. The head outputs then pass an RMS norm over
all heads, a sigmoid gate of the mixer's input (`output_gate`) and `out_proj`.

The token loop binds the state after every token; the prompt's loop binds it after
every block, which is every token once `block_per_token(model)` sets `block_size`
to 1 (the decay buffers the module holds serve any block length up to theirs).
"""

from __future__ import annotations

import inspect
from typing import Any, Optional

from nnsight.intervention.interleaver import Mediator

from .eproperty import DerivedEProperty, EProperty, unavailable
from .linear_attention import LinearQK, LinearV
from .own_attention import always
from .recurrent import (
    CACHE_ARGUMENTS,
    RecurrentMixer,
    State,
    States,
    interleaving,
    per_call,
    pinned,
    walk,
)

#: The split of the one projection into queries, keys and values, `[batch, seq, heads, head_dim]` each.
SPLIT = "torch_split_0"
#: The cached state a call starts from (`None` on a prompt): the cache's `get_linear_cache` call, labelled by the
#: name the forward gives its cache argument.
CACHED = "{cache}_get_linear_cache_0"
#: Every head's read of the state, concatenated over the blocks or tokens, `[batch, heads, seq, head_dim]`.
HEAD_OUTPUTS = "torch_cat_0"
#: Inside the prompt's loop, the state after each block (each token, once the blocks are one token long).
BLOCK_STATE = "attn_weights_inter_3"
#: Inside the loop a call over a cached state runs, the state after each token.
TOKEN_STATE = "attn_weights_inter_4"

NO_GATES = (
    "lightning attention decays each head's state by exp(-slope_rate) per token, a constant of the head set by "
    "its index and the block's depth, and writes every token's k^T v at full strength: no gate depends on the "
    "token (slope_rate is a buffer of the module)"
)


def cached_op(envoy: Any) -> str:
    """The forward's read of its cache, under the name this release gives the cache argument."""
    parameters = inspect.signature(type(envoy._module).forward).parameters
    cache = next(name for name in CACHE_ARGUMENTS if name in parameters)
    return f"source.{CACHED.format(cache=cache)}"


def cached_state(envoy: Any) -> str:
    """The key of `state_input`: the output of the forward's read of its cache."""
    return f"{cached_op(envoy)}.output"


def needs_token_blocks(envoy: Any) -> str | None:
    """Why `state` and `states` are missing: a prompt's blocks longer than one token."""
    size = envoy._module.block_size
    if size != 1:
        return (
            f"lightning attention's prompt loop holds the state only where a block ends, every {size} tokens "
            f"(block_size={size}); call nnterp.components.lightning_attention.block_per_token(model) to set every "
            "lightning mixer's block_size to 1, so that every token ends a block (slower on long prompts)"
        )
    return None


def block_per_token(model: Any, enabled: bool = True) -> None:
    """Set every lightning mixer's `block_size` to 1 on this model, so `states` reads every token; `False` restores.

    The forward reads the attribute on every call, so this touches this model only.
    Within a block the forward attends through a decay-masked product and between
    blocks through the state, so the reordered sums move the logits by rounding.
    """
    if not getattr(model, "dispatched", True):
        # A lazy load holds placeholder modules that the first trace replaces with the
        # loaded ones: set on the placeholders, the size would be lost.
        model.dispatch()
    found = 0
    for block in model.layers:
        mix = getattr(block, "linear_attn", None)
        if not isinstance(mix, LightningAttention):
            continue
        module = mix._module
        if "_nnterp_block_size" not in module.__dict__:
            module._nnterp_block_size = module.block_size
        module.block_size = 1 if enabled else module._nnterp_block_size
        found += 1
    if not found:
        raise ValueError("block_per_token found no lightning mixer (LightningAttention) on this model")


class LightningAttention(RecurrentMixer):
    """A lightning attention mixer, `model.layers[i].linear_attn`, read inside its own forward.

    There is no kernel function to read or route (`kernel_labels()` is empty): the
    queries, keys and values are the forward's split of its projection (views of
    one split, which torch refuses to edit in place: assign them), the head outputs
    its concatenation of each block's or token's read, `state_input` the cache's
    state it starts from and `state_output` the state it returns. `state`, `states`,
    `state_after(t)` and `set_state_after(t, value)` address the loop's state binding
    by occurrence, as on a DeltaNet: the token loop's over a cached state, the
    prompt loop's otherwise, which binds every token once `block_per_token(model)`
    has set the blocks to one token.
    """

    sourced = True
    #: The prompt loop's binding of the state, once per token when the blocks are one token long.
    STATE_OP = BLOCK_STATE

    @classmethod
    def kernel_labels(cls) -> tuple[str, ...]:
        """No kernel calls: the recurrence is the forward's own arithmetic, so nothing routes."""
        return ()

    # -- sizes ------------------------------------------------------------------------

    @property
    def heads(self) -> int:
        """The mixer's heads, shared by the queries, keys and values."""
        return self._module.num_attention_heads

    @property
    def key_dim(self) -> int:
        """The width of one head's queries and keys."""
        return self._module.head_dim

    @property
    def value_dim(self) -> int:
        """The width of one head's values and outputs."""
        return self._module.head_dim

    @property
    def block_size(self) -> int:
        """How many tokens of a prompt the forward attends within before it folds them into the state."""
        return self._module.block_size

    # -- the state per token ----------------------------------------------------------

    def _call_start(self) -> tuple[int, bool]:
        """(this call's length, whether it starts from a cached state), read at the split and at the cache read."""
        queries = Mediator.value(f"{walk(self, f'source.{SPLIT}').path}.output")[0]
        cached = Mediator.value(f"{walk(self, cached_op(self)).path}.output")
        return queries.shape[1], cached is not None

    def _token_state_op(self) -> str:
        """The key of `state`: the token loop's state binding over a cached state, the prompt loop's otherwise."""
        if not interleaving(self):
            return f"source.{BLOCK_STATE}.output"
        with pinned(None):
            _, cached = per_call(self, "start", self._call_start)
            label = TOKEN_STATE if cached else BLOCK_STATE
            walk(self, f"source.{label}")  # the drill happens here, relaxed
        return f"source.{label}.output"

    def _token_op(self) -> tuple[str, int, int]:
        """(the per-token state location, the occurrence its first token is, the call's length), once per call."""

        def compute() -> tuple[str, int, int]:
            with pinned(None):
                seq, cached = self._call_start()
                op = walk(self, f"source.{TOKEN_STATE if cached else BLOCK_STATE}")
                location = f"{op.path}.output"
                first = Mediator.current(f"{self.path}.output").occurrence(location)
            return location, first, seq

        return per_call(self, "call", compute)

    # -- values -----------------------------------------------------------------------

    @EProperty(
        f"source.{SPLIT}.output",
        select=0,
        description="The queries, the first head_dim channels of each head of the SiLU of the projection",
        unavailable=always,
    )
    def attention_queries(self, value) -> LinearQK:
        return value

    @EProperty(
        f"source.{SPLIT}.output",
        select=1,
        description="The keys each token writes into the state with its value",
        unavailable=always,
    )
    def attention_keys(self, value) -> LinearQK:
        return value

    @EProperty(
        f"source.{SPLIT}.output",
        select=2,
        description="The values each token writes into the state",
        unavailable=always,
    )
    def attention_values(self, value) -> LinearV:
        return value

    decays = unavailable(NO_GATES)
    betas = unavailable(NO_GATES)

    @EProperty(
        cached_state,
        description="The state the call starts from: None on a prompt, a copy of the cached state after it",
        unavailable=always,
    )
    def state_input(self, value) -> Optional[State]:  # noqa: UP045 - the layout reads typing.Optional
        # The decode loop rebinds the state rather than editing it, but a copy keeps a saved read apart from the cache.
        return None if value is None else value.clone()

    @EProperty(
        f"source.{HEAD_OUTPUTS}.output",
        description="Each head's read of the state, before the norm, the output gate and the output projection",
        unavailable=always,
    )
    def attention_head_outputs(self, value) -> LinearV:
        return value.transpose(1, 2)

    @attention_head_outputs.postprocess
    def attention_head_outputs(self, value):
        return value.transpose(1, 2)

    def _final_state(self) -> State:
        """The state after the call's last token, the forward's second output, which the cache keeps; read-only."""
        return self.output[1].clone()

    state_output = DerivedEProperty(
        _final_state,
        description="The state after the call's last token, which the next decode step starts from; read-only",
        unavailable=always,
    )

    @EProperty(
        lambda envoy: envoy._token_state_op(),
        description="The state after one token, one occurrence per token for tracer.iter to read or write",
        unavailable=needs_token_blocks,
    )
    def state(self, value) -> State:
        return value

    def _all_states(self) -> States:
        """The state after every token of the call, stacked on axis 1; read-only."""
        return self._states()

    states = DerivedEProperty(
        _all_states,
        description="The state after every token of the call, read-only",
        unavailable=needs_token_blocks,
    )
