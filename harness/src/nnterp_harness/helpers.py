"""The shared pieces of the family contracts: the prompts, the native-path table, and the small helpers.

`rows()` builds a family's `NATIVE` table (`LLAMA_ROWS` is Llama's); `run()` traces a
prompt and returns what a body read; `ulp_close`, `moved`, `scale_of` and `perturbed`
are the tolerances and the edits every check shares; `child_names`, `hosts`,
`host_of` and `split_key` map `support()` keys onto a block's envoys. Every contract
module imports these from here, and none of them imports a contract.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import torch

import nnterp
from nnterp.components import EProperty, Standard
from nnterp.components.standard import nested_children

PROMPT = "The Eiffel Tower is in"
OTHER_PROMPT = "Paris is the capital of"

#: The values every softmax attention, block and dense MLP serves (the base components').
ATTENTION_INTERIOR = (
    "attention_queries",
    "attention_keys",
    "attention_values",
    "attention_scores",
    "attention_probabilities",
    "attention_head_outputs",
)
#: Block children whose standard name is preferred when a child has several aliases.
PREFERRED_CHILDREN = ("self_attn", "linear_attn", "mlp")
#: `LOAD_KWARGS` keys that only `StandardizedTransformer` takes; `raw_model` drops them.
NNTERP_ONLY_KWARGS = ("family", "rename", "envoys", "tokenizer_kwargs")

#: The mixture's values, in forward order.
MOE_VALUES = (
    "router_logits",
    "expert_weights",
    "expert_indices",
    "expert_outputs",
    "routed_output",
    "shared_expert_output",
)

#: `EXPECTED_UNAVAILABLE` entries of every mixture block: a routed mixture has no single neuron vector.
ROUTED_EXPERTS = {
    "mlp.mlp_activation": "routed experts",
    "mlp.mlp_neurons": "routed experts",
}
#: `EXPECTED_UNAVAILABLE` entry of a mixture without a shared expert.
NO_SHARED_EXPERT = {"mlp.shared_expert_output": "this mixture has no shared expert"}


# -- the native-path table -----------------------------------------------------------


def rows(
    container: str | None,
    layers: str,
    embed: str | None,
    norm: str | None,
    attn: str | None = "self_attn",
    ln1: str | None = "input_layernorm",
    ln2: str | None = "post_attention_layernorm",
    mlp: str | None = "mlp",
    head: str | None = "lm_head",
) -> dict[str, str]:
    """The standard path -> native path table of a family, as `FamilySuite.NATIVE` takes it.

    Native paths are relative to the root envoy. `container` is the inner model
    that holds the embedding, the blocks and the final norm (``"model"``,
    ``"transformer"``, ``"model.decoder"``; `None` or ``""`` for the root itself);
    `head` is relative to the root. The block rows name block 0 (``"layers.0.mlp"``),
    and the suite checks them on every block. A name given as `None` drops its row,
    for a family without that module or whose module keeps its native name only.
    """
    prefix = f"{container}." if container else ""
    block = f"{prefix}{layers}.0"
    table = {
        "embed_tokens": f"{prefix}{embed}" if embed else None,
        "layers": f"{prefix}{layers}",
        "norm": f"{prefix}{norm}" if norm else None,
        "lm_head": head,
        "layers.0.self_attn": f"{block}.{attn}" if attn else None,
        "layers.0.input_layernorm": f"{block}.{ln1}" if ln1 else None,
        "layers.0.post_attention_layernorm": f"{block}.{ln2}" if ln2 else None,
        "layers.0.mlp": f"{block}.{mlp}" if mlp else None,
    }
    return {standard: native for standard, native in table.items() if native is not None}


#: Llama's layout: the containers inside the inner `model`, every block name standard.
LLAMA_ROWS = rows("model", "layers", "embed_tokens", "norm")


def with_config(source: Path, target: Path, **overrides: Any) -> Path:
    """A copy of checkpoint `source` at `target` with `config.json` rewritten by `overrides`.

    Every other file is a symlink to the original, so a second class of a family can
    load the same weights under another config (see `FamilySuite.checkpoint_dir`).
    """
    target.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if entry.name == "config.json":
            continue
        link = target / entry.name
        if not link.exists():
            os.symlink(entry.resolve(), link)
    config = json.loads((source / "config.json").read_text())
    config.update(overrides)
    (target / "config.json").write_text(json.dumps(config, indent=2))
    return target


# -- small helpers ---------------------------------------------------------------------


def run(model: Any, body: Callable[[Any], Any], prompt: Any = PROMPT) -> Any:
    """Trace `prompt` and return what `body(model)` returned inside the trace.

    The box is created before the trace, so what `body` returns survives it.
    """
    box: list[Any] = []
    with model.trace(prompt):
        box.append(body(model))
    return box[0]


def first_tensor(value: Any) -> Any:
    """A module output's tensor: the output itself, or its first element."""
    return value[0] if isinstance(value, (tuple, list)) else value


def scale_of(*tensors: torch.Tensor) -> float:
    """The largest magnitude among the tensors' entries (at least 1), mask entries left out.

    A masked score or logit holds the dtype's lowest value (or minus infinity); counted,
    it would make every tolerance built on this scale, and so every check, vacuous.
    """
    found = [1.0]
    for t in tensors:
        if not t.numel():
            continue
        magnitude = t.detach().abs()
        if t.is_floating_point():
            magnitude = magnitude[magnitude < torch.finfo(t.dtype).max / 4]
        if magnitude.numel():
            found.append(float(magnitude.max()))
    return max(found)


def ulp_close(a: torch.Tensor, b: torch.Tensor, ulps: int = 8) -> bool:
    """Whether `a` and `b` agree to `ulps` units of their dtype, relative to their magnitude."""
    if a.shape != b.shape:
        return False
    atol = ulps * torch.finfo(a.dtype).eps * scale_of(a, b)
    return bool(torch.allclose(a, b, rtol=0.0, atol=atol))


def moved(edited: torch.Tensor, clean: torch.Tensor) -> bool:
    """Whether an edit moved `edited` away from `clean`, by more than rounding."""
    if edited.shape != clean.shape:
        return True
    gap = float((edited.detach().float() - clean.detach().float()).abs().max())
    return gap > 64 * torch.finfo(clean.dtype).eps * scale_of(clean)


def perturbed(value: torch.Tensor) -> torch.Tensor:
    """`value` plus fixed noise of its own scale: a write no norm can undo (a constant shift is)."""
    generator = torch.Generator().manual_seed(0)
    noise = torch.randn(value.shape, generator=generator).to(device=value.device, dtype=value.dtype)
    return value + noise * scale_of(value)


def child_names(block: Any) -> dict[str, Any]:
    """A block's `Standard` children by standard name (their alias, else their native name)."""
    found: dict[str, Any] = {}
    for native, child in block._named_children():
        if not isinstance(child, Standard):
            continue
        aliases = [alias for alias, path in block._aliases.items() if path == native]
        preferred = [alias for alias in PREFERRED_CHILDREN if alias in aliases]
        found[(preferred or aliases or [native])[0]] = child
    # A standard module aliased onto the block from deeper down (DBRX's `norm_attn_norm.attn`).
    for alias, child in nested_children(block):
        found.setdefault(alias, child)
    return found


def hosts(block: Any) -> dict[str, Any]:
    """The envoys carrying a block's values, by support-key prefix (``""`` for the block)."""
    return {"": block, **child_names(block)}


def split_key(key: str) -> tuple[str, str]:
    """``"self_attn.attention_scores"`` -> ``("self_attn", "attention_scores")``; block keys get ``""``."""
    prefix, _, name = key.rpartition(".")
    return prefix, name


def lacking_child(entry: Any, blocks: Any) -> list[int]:
    """The blocks whose reason in a block value's `support()` entry is a child module the block does lack."""
    if not isinstance(entry, dict):
        return []
    found = []
    for index, reason in entry.items():
        match = re.fullmatch(r"no (\w+) module on this block", reason or "")
        if match and getattr(blocks[index], match.group(1), None) is None:
            found.append(index)
    return found


def on_no_block(model: Any, key: str) -> bool:
    """Whether `key` is a value of a standard module no block has (Mamba's `mlp`): listed by `support()`, read nowhere."""
    prefix, _ = split_key(key)
    return prefix in ("self_attn", "mlp") and all(host_of(block, prefix) is None for block in model.layers)


def host_of(block: Any, prefix: str) -> Any:
    return block if not prefix else getattr(block, prefix, None)


def root_values(model: Any) -> dict[str, EProperty]:
    """The root's values of the model's kind, name to descriptor, bases first (an encoder's mask values on one only)."""
    from nnterp.encoders import of_its_kind

    found: dict[str, EProperty] = {}
    for klass in reversed(type(model).__mro__):
        for name, attr in vars(klass).items():
            if isinstance(attr, EProperty) and of_its_kind(model, name):
                found[name] = attr
    return found


def model_dtype(model: Any) -> torch.dtype:
    return next(model._module.parameters()).dtype


def is_attention(envoy: Any) -> bool:
    return isinstance(envoy, nnterp.Attention)
