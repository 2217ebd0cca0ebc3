"""Kimi delta attention (KDA): a gated DeltaNet whose decay is per key channel, `KimiDeltaAttention`.

Kimi-Linear and Ling's hybrids (`bailing_hybrid`) run the delta rule of
`LinearAttention` with one change: the decay `g` the state is multiplied by before
each token's write has one value per head and key channel, `[batch, seq, heads,
key_dim]`, so each row of a head's `[key_dim, value_dim]` state forgets at its own
rate. The queries, keys and values have as many heads as the values (no grouping),
and the kernels are transformers' `chunk_kimi_delta_attention` (the prompt) and
`recurrent_kimi_delta_attention` (a decode step, and the token loop `route_kernels`
binds both names to), called as `kernel(q, k, v, g=..., beta=..., initial_state=...)
-> (head outputs, final state)`.
"""

from __future__ import annotations

from .eproperty import EProperty
from .linear_attention import ChannelGates, LinearAttention
from .recurrent import kernel, needs_torch_kernels


class KimiDeltaAttention(LinearAttention):
    """A Kimi delta attention mixer, `model.layers[i].linear_attn`.

    `LinearAttention` with KDA's two kernels, `decays` per key channel
    (`ChannelGates`) and the mixer's heads sized by `num_heads` and `head_dim`, which
    the queries, keys and values share. Routed, the token loop's second binding of
    `last_recurrent_state` (after the write) is the state per token.
    """

    CHUNK_KERNEL = "chunk_kimi_delta_attention_0"
    RECURRENT_KERNEL = "recurrent_kimi_delta_attention_0"
    STATE_OP = "last_recurrent_state_2"
    PROMPT_LOOP = "recurrent_kimi_delta_attention_0"

    # -- sizes ------------------------------------------------------------------------

    @property
    def heads(self) -> int:
        """The mixer's heads, shared by the queries, keys and values."""
        return self._module.num_heads

    @property
    def key_dim(self) -> int:
        """The width of one head's queries and keys, and the decay's channels."""
        return self._module.head_dim

    @property
    def value_dim(self) -> int:
        """The width of one head's values and outputs."""
        return self._module.head_dim

    # -- values -----------------------------------------------------------------------

    @EProperty(
        kernel("inputs"),
        select="g",
        description="The log of how much of each key channel of the state each token keeps, non-positive",
        unavailable=needs_torch_kernels,
    )
    def decays(self, value) -> ChannelGates:
        return value
