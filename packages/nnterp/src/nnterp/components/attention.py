"""Softmax attention: the contribution, and the tensors inside transformers' shared eager attention.

The interior values are read at the call of the shared attention interface
(`INTERFACE`) and inside the eager function it calls, so they exist only when the
model runs `attn_implementation="eager"`.
"""

from __future__ import annotations

from typing import Any

from jaxtyping import Float
from torch import Tensor

from .eproperty import EProperty
from .layer import Residual
from .reasons import needs_child
from .standard import (
    BATCH,
    HEAD_DIM,
    HEADS,
    KEY,
    KV_HEADS,
    QK_HEAD_DIM,
    QUERY,
    SEQ,
    Standard,
    first_tensor,
    named_layout,
    rewrap,
)

#: The call of the shared attention interface in a transformers attention forward:
#: `attention_interface_0` is the binding `attention_interface = ...get_interface(...)`.
INTERFACE = "attention_interface_1"

# The queries entering attention, heads first.
Queries = named_layout("Queries", Float[Tensor, f"{BATCH} {HEADS} {SEQ} {QK_HEAD_DIM}"])
# The keys entering attention, before they are repeated over the query heads.
Keys = named_layout("Keys", Float[Tensor, f"{BATCH} {KV_HEADS} {SEQ} {QK_HEAD_DIM}"])
# The values entering attention, before they are repeated over the query heads.
Values = named_layout("Values", Float[Tensor, f"{BATCH} {KV_HEADS} {SEQ} {HEAD_DIM}"])
# A score or a weight per head, query position and key position.
Pattern = named_layout("Pattern", Float[Tensor, f"{BATCH} {HEADS} {QUERY} {KEY}"])
# One vector per token and head, sequence first.
HeadOutputs = named_layout("HeadOutputs", Float[Tensor, f"{BATCH} {SEQ} {HEADS} {HEAD_DIM}"])


def needs_eager(envoy: Any) -> str | None:
    """The reason an interior value is missing when the model does not run the eager attention."""
    implementation = getattr(module_config(envoy), "_attn_implementation", None) or "eager"
    if implementation != "eager":
        return (
            f"read inside the eager attention forward, but this model runs '{implementation}'; "
            "load with attn_implementation='eager'"
        )
    return None


def interface_reason(envoy: Any) -> str | None:
    """The predicate the interior values carry: the attention envoy's own `off_interface()`."""
    return envoy.off_interface()


def module_config(envoy: Any) -> Any:
    """The config the module holds, else the model's text config (some attentions keep none)."""
    config = getattr(envoy._module, "config", None)
    if config is None:
        config = envoy.root._module.config
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def config_value(config: Any, key: str) -> Any:
    """`config.<key>`, or `None` where the config lacks it or refuses a model-wide read of a per-block size."""
    try:
        return getattr(config, key, None)
    except Exception:  # transformers raises its own error for a per-layer attribute (Gemma 4's head_dim)
        return None


def _int(*candidates: Any) -> int | None:
    for candidate in candidates:
        if isinstance(candidate, int) and not isinstance(candidate, bool):
            return candidate
    return None


class Attention(Standard):
    """A block's softmax attention, `model.layers[i].self_attn`.

    The sizes are this block's own, read off the module. `off_interface()` says why
    the shared eager forward does not run here, or `None`; a family with another
    reason overrides it once rather than each value.
    """

    INTERFACE = INTERFACE
    #: Whether the pattern keeps a sink column out of the rows (their sums fall below one).
    SINK = False

    def off_interface(self) -> str | None:
        """Why the eager attention interface does not run on this module, or `None`."""
        return needs_eager(self)

    # -- sizes ----------------------------------------------------------------

    @property
    def head_dim(self) -> int:
        """The width of one head's values and outputs."""
        module = self._module
        config = module_config(self)
        return _int(
            getattr(module, "head_dim", None),
            config_value(config, "head_dim"),
            config.hidden_size // self.num_heads,
        )

    @property
    def qk_head_dim(self) -> int:
        """The width of one head's queries and keys; `head_dim` outside latent attention."""
        return self.head_dim

    @property
    def num_heads(self) -> int:
        """This block's query heads, counted where the heads are merged.

        The output projection takes exactly one `head_dim` per head, while a query
        projection may be wider (a gated query carries its gate beside the queries),
        so the heads are counted off `o_proj` first, then `q_proj`, then the config.
        """
        module = self._module
        modules = module.__dict__.get("_modules", {})
        config = module_config(self)
        head_dim = _int(getattr(module, "head_dim", None), config_value(config, "head_dim"))
        o_proj = modules.get("o_proj")
        if o_proj is None:  # an output projection under a native name reaches the envoy as an alias
            o_proj = getattr(getattr(self, "o_proj", None), "_module", None)
        if head_dim and o_proj is not None and hasattr(o_proj, "in_features"):
            return o_proj.in_features // head_dim
        q_proj = modules.get("q_proj")
        if q_proj is not None and head_dim and hasattr(q_proj, "out_features"):
            return q_proj.out_features // head_dim
        return _int(getattr(module, "num_heads", None), config.num_attention_heads)

    @property
    def num_kv_heads(self) -> int:
        """This block's key/value heads (`num_heads` without grouping)."""
        module = self._module
        k_proj = module.__dict__.get("_modules", {}).get("k_proj")
        if k_proj is not None and hasattr(k_proj, "out_features"):
            return k_proj.out_features // self.qk_head_dim
        groups = _int(getattr(module, "num_key_value_groups", None))
        if groups:
            return self.num_heads // groups
        return _int(config_value(module_config(self), "num_key_value_heads"), self.num_heads)

    @property
    def attention_window(self) -> int | None:
        """How many keys each query of this block sees, itself included, or `None` where it sees every earlier one.

        Read as transformers builds the block's mask: the config's `sliding_window` on a block
        whose `layer_types` entry is `sliding_attention`, and on every block where the config
        lists no `layer_types` (unless `use_sliding_window` is false). A query at position `q`
        then weighs the keys `q - attention_window + 1` to `q`.
        """
        config = module_config(self)
        window = _int(config_value(config, "sliding_window"))
        if window is None or config_value(config, "use_sliding_window") is False:
            return None
        kinds = config_value(config, "layer_types")
        index = getattr(self._module, "layer_idx", None)
        if isinstance(kinds, (list, tuple)) and isinstance(index, int) and index < len(kinds):
            return window if kinds[index] == "sliding_attention" else None
        return window

    # -- values ---------------------------------------------------------------

    @EProperty(
        f"source.{INTERFACE}.inputs",
        select=1,
        description="The queries entering attention",
        unavailable=interface_reason,
    )
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty(
        f"source.{INTERFACE}.inputs",
        select=2,
        description="The keys entering attention",
        unavailable=interface_reason,
    )
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty(
        f"source.{INTERFACE}.inputs",
        select=3,
        description="The values entering attention",
        unavailable=interface_reason,
    )
    def attention_values(self, value) -> Values:
        return value

    @EProperty(
        f"source.{INTERFACE}.source.nn_functional_softmax_0.input",
        description="The attention scores entering the softmax, masked",
        unavailable=interface_reason,
    )
    def attention_scores(self, value) -> Pattern:
        return value

    @EProperty(
        f"source.{INTERFACE}.source.nn_functional_dropout_0.output",
        description="The attention pattern the values are mixed with",
        unavailable=interface_reason,
    )
    def attention_probabilities(self, value) -> Pattern:
        return value

    @EProperty(
        f"source.{INTERFACE}.output",
        select=0,
        description="The per-head outputs before the output projection",
        unavailable=interface_reason,
    )
    def attention_head_outputs(self, value) -> HeadOutputs:
        return value

    @EProperty(
        "o_proj.input",
        description="Every head's output side by side, as the output projection takes it",
        unavailable=needs_child("o_proj", "attention"),
    )
    def attention_premix(self, value) -> HeadOutputs:
        return value.unflatten(-1, (self.num_heads, -1))

    @attention_premix.postprocess
    def attention_premix(self, value):
        return value.flatten(-2)

    @EProperty("output", description="What the attention adds to the residual stream")
    def attention_output(self, value) -> Residual:
        return first_tensor(value)

    @attention_output.postprocess
    def attention_output(self, value):
        return rewrap(self, value)
