"""Multi-head latent attention (the DeepSeek line): keys and values decompressed from one shared latent.

The queries and keys are not one projection split into heads: each head's query is
its no-rope part (from the query projection) joined to its rotary part, and each
head's key is its no-rope part, decompressed from the shared key/value latent by
`kv_b_proj`, joined to one rotary key shared by every head. The values are
decompressed from the same latent. All three enter transformers' shared attention
interface as `[batch, num_heads, seq, ...]`, which is where they are read: the
queries and keys are `qk_head_dim = qk_nope_head_dim + qk_rope_head_dim` wide, the
values and the head outputs `head_dim = v_head_dim` wide, and there are as many
key/value heads as query heads.
"""

from __future__ import annotations

from .attention import Attention, Values
from .eproperty import EProperty


def redescribed(base: EProperty, description: str) -> EProperty:
    """A copy of value `base` (same key, selection, reason and layout) that says what it serves here."""
    copy = EProperty(base.key, description=description, unavailable=base.unavailable, select=base.select)
    return copy(base._preprocess)


class LatentAttention(Attention):
    """A latent attention; the interior at the shared interface, sized by the module's own latent dimensions."""

    @property
    def head_dim(self) -> int:
        """The width of one head's values and outputs, `v_head_dim`."""
        return self._module.v_head_dim

    @property
    def qk_head_dim(self) -> int:
        """The width of one head's queries and keys: the no-rope part and the rotary part."""
        return self._module.qk_head_dim

    @property
    def num_heads(self) -> int:
        """This block's query heads."""
        return self._module.num_heads

    @property
    def num_kv_heads(self) -> int:
        """Every head has its own decompressed key and value, so `num_heads`."""
        return self.num_heads

    attention_queries = redescribed(
        Attention.attention_queries,
        "The queries entering attention: each head's no-rope query joined to its rotary query",
    )
    attention_keys = redescribed(
        Attention.attention_keys,
        "The keys entering attention: each head's key decompressed from the latent, joined to the shared rotary key",
    )
    attention_values = redescribed(
        Attention.attention_values, "The values entering attention, each head's decompressed from the shared latent"
    )


def split_latent_values() -> EProperty:
    """`attention_values` of a latent attention whose values are one half of a `split` of the decompressed latent.

    torch refuses an in-place edit of a `split`'s view, so the value is served as a copy
    that is swapped back into the call; an in-place edit of it lands.
    """

    base = Attention.attention_values

    @EProperty(
        base.key,
        select=base.select,
        description="The values entering attention, each head's decompressed from the shared latent",
        unavailable=base.unavailable,
    )
    def attention_values(self, value) -> Values:
        return value.clone()

    @attention_values.transform
    def attention_values(self, view, raw):
        return view

    return attention_values


def latent_head_dim(model) -> int:
    """A latent-attention model's `head_dim`: the width of one head's values, `v_head_dim`."""
    return model.config.get_text_config().v_head_dim


def latent_qk_head_dim(model) -> int:
    """A latent-attention model's `qk_head_dim`: the no-rope and the rotary widths of a query or key."""
    config = model.config.get_text_config()
    return config.qk_nope_head_dim + config.qk_rope_head_dim
