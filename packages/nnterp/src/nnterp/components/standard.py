"""The base of every envoy that carries standard values, the axis names, and the tuple helpers.

An axis that is a fact about the model is named exactly as the size attribute that
holds it (`num_heads`, `hidden_size`, ...), which is what lets `axis_size` resolve it
by walking from the envoy up to the root.
"""

from __future__ import annotations

from typing import Any

from nnsight.intervention.envoy import Envoy
from nnsight.intervention.interleaver import Mediator

from .eproperty import EProperty

# Axes that are not facts about the model: their size is the tensor's.
BATCH = "batch"
SEQ = "seq"
TOKENS = "tokens"
QUERY = "query"
KEY = "key"
STREAMS = "streams"
MIXER_HEADS = "heads"
KEY_DIM = "key_dim"
VALUE_DIM = "value_dim"
CHANNELS = "channels"
STATE_DIM = "state_dim"
GROUPS = "groups"
IMAGES = "images"
PATCHES = "patches"
IMAGE_TOKENS = "image_tokens"
MASK_TOKENS = "mask_tokens"

# Axes named as the size attribute that holds them.
HIDDEN = "hidden_size"
VOCAB = "vocab_size"
HEADS = "num_heads"
KV_HEADS = "num_kv_heads"
HEAD_DIM = "head_dim"
QK_HEAD_DIM = "qk_head_dim"
INTERMEDIATE = "intermediate_size"
EXPERTS = "num_experts"
TOP_K = "top_k"
VISION_HIDDEN = "vision_hidden_size"


def named_layout(name: str, layout: Any, index_bound: str | None = None) -> Any:
    """Give a jaxtyping alias the name the repr and the docs use for it.

    `index_bound` marks a layout whose values are indices: the host's size attribute
    they stay below (`num_experts`); a write or an in-place edit outside
    `[0, index_bound)`, or of a non-integer dtype, is refused before the model
    consumes it.
    """
    layout.__name__ = name
    layout.__qualname__ = name
    if index_bound is not None:
        layout.index_bound = index_bound
    return layout


def first_tensor(value: Any) -> Any:
    """The tensor of a module output: the output itself, or its first element when it is a tuple."""
    if isinstance(value, (tuple, list)):
        return value[0]
    return value


def rewrap(envoy: Envoy, value: Any) -> Any:
    """Put `value` back where `first_tensor` took it from in `envoy`'s current output."""
    current = Mediator.value(f"{envoy.path}.output")
    if isinstance(current, list):  # a forward that concatenates lists (GPT-1's blocks) needs a list back
        return [value, *current[1:]]
    if isinstance(current, tuple):
        return (value, *current[1:])
    return value


def seq_first(value: Any) -> Any:
    """A heads-first tensor `[batch, heads, seq, ...]` as `[batch, seq, heads, ...]`."""
    return value.transpose(1, 2)


def rename_beneath(module: Any, rename: dict | None) -> dict | None:
    """The entries of `rename` that can bind on `module`'s envoy or an envoy under it.

    nnsight tries every `rename` key on every envoy of the tree, and each miss goes
    through the envoy's and the module's attribute fallbacks. A key binds where its
    first component names a child of the envoy (or, for a class key, where a direct
    child is an instance of it), so a subtree in which no module has such a child,
    attribute or instance never binds it, and its envoys are spared the tries.
    """
    if not rename:
        return rename
    modules = list(module.modules())
    kept = {}
    for key, alias in rename.items():
        if isinstance(key, type):
            binds = any(isinstance(inner, key) for inner in modules[1:])
        else:
            first = key.lstrip(".").split(".", 1)[0]
            binds = (
                bool(module._modules)
                if first == "*"
                else any(first in inner._modules or hasattr(type(inner), first) for inner in modules)
            )
        if binds:
            kept[key] = alias
    return kept or None


class Plain(Envoy):
    """The envoy of a module that no family or caller gives a class; it takes only the renames that bind beneath it."""

    def __init__(self, module: Any, *args: Any, rename: Any = None, **kwargs: Any) -> None:
        super().__init__(module, *args, rename=rename_beneath(module, rename), **kwargs)


class Standard(Envoy):
    """An envoy whose class carries standard values (`EProperty` descriptors).

    `values()` lists them by name, `support()` answers per value whether this
    instance has it. `sourced = True` instruments the module's forward at build, for
    a value inside that forward that is read after the worker is already parked
    inside the module.
    """

    sourced = False

    def __init__(self, module: Any, *args: Any, rename: Any = None, **kwargs: Any) -> None:
        super().__init__(module, *args, rename=rename_beneath(module, rename), **kwargs)
        if self.sourced:
            self.source  # noqa: B018 - building the Source instruments the forward

    def _update(self, module: Any) -> None:
        super()._update(module)
        if self.sourced:
            self.source  # noqa: B018 - real weights reinstall the plain forward

    @classmethod
    def values(cls) -> dict[str, EProperty]:
        """Every value of this class, name to descriptor, in definition order (bases first)."""
        found: dict[str, EProperty] = {}
        for klass in reversed(cls.__mro__):
            for name, attr in vars(klass).items():
                if isinstance(attr, EProperty):
                    found[name] = attr
                elif name in found:
                    del found[name]
        return {name: getattr(cls, name) for name in found}

    def support(self) -> dict[str, str | None]:
        """This envoy's own values: `None` when available, else the reason."""
        return {name: attr.reason(self) for name, attr in type(self).values().items()}


def axis_size(envoy: Envoy, axis: str) -> int:
    """The size of layout axis `axis` for a value on `envoy`.

    The attribute named `axis` on the envoy's class when it declares one, else on the
    first envoy above it that does, up to the root.

    Raises:
        ValueError: no envoy from `envoy` up to the root holds a size by that name,
            so the axis is not a fact about the model (`batch`, `seq`, `key`, ...).
    """
    node = envoy
    while node is not None:
        if hasattr(type(node), axis) and not isinstance(getattr(type(node), axis), EProperty):
            return getattr(node, axis)
        node = node.parent
    raise ValueError(
        f"axis {axis!r} of a value on {envoy.path} is not a fact about the model: "
        "no envoy from there up to the root holds a size by that name"
    )


def standard_name(block: Envoy, name: str, child: Envoy) -> str:
    """The name `child` of `block` is listed under: its standard alias, else its native name."""
    aliases = [alias for alias, path in block._aliases.items() if path == name]
    for preferred in ("self_attn", "linear_attn", "mlp"):
        if preferred in aliases:
            return preferred
    return aliases[0] if aliases else name


def block_values(block: Envoy) -> list[tuple[str, Envoy, EProperty]]:
    """(name, host envoy, descriptor) for a block's own values and its `Standard` children's, under their standard names."""
    found = []
    if isinstance(block, Standard):
        found += [(name, block, attr) for name, attr in type(block).values().items()]
    for name, child in block._named_children():
        if isinstance(child, Standard):
            prefix = standard_name(block, name, child)
            found += [(f"{prefix}.{value}", child, attr) for value, attr in type(child).values().items()]
    for alias, child in nested_children(block):
        found += [(f"{alias}.{value}", child, attr) for value, attr in type(child).values().items()]
    return found


def nested_children(block: Envoy) -> list[tuple[str, Envoy]]:
    """(alias, envoy) for the `Standard` modules aliased onto `block` from deeper down (DBRX's `norm_attn_norm.attn`)."""
    found = []
    for alias, path in block._aliases.items():
        child = block.__dict__.get(alias)
        if "." in path and isinstance(child, Standard):
            found.append((alias, child))
    return found


def block_rows(block: Envoy) -> dict[str, str | None]:
    """One block's values, its own and its `Standard` children's under their standard names: `None` or the reason."""
    return {name: attr.reason(host) for name, host, attr in block_values(block)}


#: The reason of a value whose module is on no block of the model (Mamba's `mlp`), by module name.
NOWHERE = "no {} module on this block: no block of this model has one"
#: The reason of a value whose module this block lacks and another block has (a hybrid's `self_attn`).
NOT_HERE = "no {} module on this block"


def absent_reason(rows: dict[str, str | None], name: str, everywhere: bool = False) -> str:
    """Why a block without row `name` lacks the value: no such module on it, or a module of a kind without the value.

    `everywhere` marks a module no block of the model has.
    """
    module, _, value = name.rpartition(".")
    module = module or name
    if any(key.startswith(f"{module}.") for key in rows):
        # The block has the module, of a kind without this value (a dense MLP beside mixtures).
        return f"the {module} on this block has no {value}"
    return (NOWHERE if everywhere else NOT_HERE).format(module)


def blocks_rows(layers: Any, standard: dict[str, type] | None = None) -> list[dict[str, str | None]]:
    """Every block's rows over the same keys: the union of the blocks' values, then `standard`'s that no block has.

    `standard` maps a standard module name to the class whose values a block of it
    serves (`{"mlp": Mlp}`), so a module no block has (Mamba's `mlp`) still has its
    keys. A block without a key's module, or whose module lacks the value, gets the
    reason `absent_reason` gives.
    """
    per_block = [block_rows(block) for block in layers]
    names: dict[str, None] = {}
    for rows in per_block:
        names.update(dict.fromkeys(rows))
    nowhere: set[str] = set()
    for module, cls in (standard or {}).items():
        if not any(name.startswith(f"{module}.") for name in names):
            keys = [f"{module}.{value}" for value in cls.values()]
            names.update(dict.fromkeys(keys))
            nowhere.update(keys)
    return [
        {name: rows[name] if name in rows else absent_reason(rows, name, name in nowhere) for name in names}
        for rows in per_block
    ]


def blocks_support(layers: Any, standard: dict[str, type] | None = None) -> dict[str, Any]:
    """`support()` over a list of blocks: `None` where every block has a value, else `{layer: reason}`.

    Keys and reasons are `blocks_rows`': a value a block lacks because it has no such
    module reads `no <module> module on this block`; one its module does not serve
    (a mixture value on a dense MLP) reads `the <module> on this block has no <value>`.
    """
    per_block = blocks_rows(layers, standard)
    if not per_block:
        return {}
    support: dict[str, Any] = {}
    for name in per_block[0]:
        missing = {index: rows[name] for index, rows in enumerate(per_block) if rows[name] is not None}
        support[name] = missing or None
    return support
