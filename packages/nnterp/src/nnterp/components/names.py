"""Standard names: an envoy or a value spelled as a user writes it, `layers[2].self_attn.attention_probabilities`.

Errors name what was asked for by its standard name first and by its native
location after it, so the message matches the line that raised it.
"""

from __future__ import annotations

from typing import Any

#: The aliases a step prefers where several name one module (a block's mixer and MLP).
PREFERRED = ("layers", "self_attn", "linear_attn", "mlp")
#: A block's standard modules: asking a block for one it lacks raises `missing_module`'s message.
BLOCK_MODULES = ("self_attn", "linear_attn", "mlp", "input_layernorm", "post_attention_layernorm")


def _step(node: Any, rest: list[str]) -> tuple[str, int]:
    """The name of the next step under `node` along native segments `rest`, and how many segments it covers.

    The alias whose native path is the longest prefix of `rest` (an alias may span
    several segments, as `layers` for `transformer.h`), else the native segment.
    """
    best: tuple[str, int] | None = None
    for alias, native in node.__dict__.get("_aliases", {}).items():
        segments = native.split(".")
        if rest[: len(segments)] != segments:
            continue
        if best is None or len(segments) > best[1] or (len(segments) == best[1] and alias in PREFERRED):
            best = (alias, len(segments))
    return best or (rest[0], 1)


def _child(node: Any, segments: list[str]) -> Any:
    for segment in segments:
        node = node.__dict__.get("_child_map", {}).get(segment)
        if node is None:
            return None
    return node


def standard_path(envoy: Any) -> str:
    """`envoy`'s path from the root in standard names (`layers[2].self_attn`), `""` for the root itself."""
    root = envoy.root
    if envoy is root:
        return ""
    prefix = f"{root.path}."
    if not envoy.path.startswith(prefix):
        return envoy.path
    rest = envoy.path[len(prefix) :].split(".")
    node, named = root, ""
    while rest:
        name, used = _step(node, rest)
        named += f"[{name}]" if name.isdigit() else (f".{name}" if named else name)
        node = _child(node, rest[:used])
        rest = rest[used:]
        if node is None:  # a module outside the envoy tree: the rest as written natively
            return ".".join([named, *rest]) if rest else named
    return named


def value_name(envoy: Any, name: str) -> str:
    """Value `name` of `envoy` by its standard name: `layers[0].self_attn.attention_probabilities`, `logits`."""
    path = standard_path(envoy)
    return f"{path}.{name}" if path else name


def native_note(envoy: Any) -> str:
    """` (on <native path>)` for an envoy below the root, `""` on the root, whose values need no location."""
    return "" if envoy is envoy.root else f" (on {envoy.path})"


def value_label(envoy: Any, name: str) -> str:
    """Value `name` of `envoy` as an error leads with it: its standard name, then its native module."""
    return f"{value_name(envoy, name)}{native_note(envoy)}"


def block_index(envoy: Any) -> int | None:
    """The index of the text block holding `envoy` (the envoy itself when it is one), else `None`."""
    root = envoy.root
    layers = root.__dict__.get("layers")
    if layers is None:
        return None
    node = envoy
    while node is not None and node.parent is not None:
        if node.parent is layers:
            last = node.path.rsplit(".", 1)[-1]
            return int(last) if last.isdigit() else None
        node = node.parent
    return None


def block_children(block: Any) -> list[str]:
    """The modules a block holds, each by its standard name where it has one, in module order."""
    found = []
    for native, _ in block._named_children():
        aliases = [alias for alias, path in block._aliases.items() if path == native]
        preferred = [alias for alias in PREFERRED if alias in aliases]
        found.append((preferred or aliases or [native])[0])
    for alias, path in block._aliases.items():
        if "." in path and alias not in found and alias in BLOCK_MODULES:  # mounted from deeper down
            found.append(alias)
    hidden = block.__dict__.get("_hidden_mixers", ())
    return [name for name in found if name not in hidden]


def missing_module(block: Any, name: str) -> str:
    """The message for asking `block` for standard module `name`, which it lacks: one wording on every block kind."""
    index = block_index(block)
    has = block_children(block)
    instead = f"it has {', '.join(has)}" if has else "it holds no submodule"
    where = f"model.support(layer={index})" if index is not None else "model.support()"
    return (
        f"{value_name(block, name)}: no {name} module on this block ({instead}); "
        f"{where} lists what it serves, with a reason for each value it lacks (native block {block.path})"
    )


class BlockModules:
    """Mixin for a block envoy on any engine: asking for a standard module it lacks raises `missing_module`'s message.

    Mixed in before the envoy class (`class Layer(BlockModules, Standard)`). The error
    stays an `AttributeError`, so `getattr(layer, "mlp", None)` still picks the blocks.
    """

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails.
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name in BLOCK_MODULES and "_child_map" in self.__dict__:
                raise AttributeError(missing_module(self, name)) from None
            raise


def not_available(envoy: Any, name: str, reason: str) -> str:
    """The message of `Unavailable` for value `name` of `envoy`: its standard name, the native module, the reason."""
    return f"{value_label(envoy, name)} is not available: {reason}"
