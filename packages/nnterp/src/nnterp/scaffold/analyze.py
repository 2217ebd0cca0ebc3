"""What a causal-LM type's code says about its standard values: read off a tiny instance and its forwards' source.

`analyze(model_type)` builds the type from a shrunk config of the installed
transformers (nothing is downloaded), finds the containers, the block's children
and the head in the module tree, and walks the block's `forward` statement by
statement to place each sublayer's norm, contribution and residual add. What it
cannot place is recorded in `Analysis.needs_person`, naming the forward line.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass, field
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import torch

#: The sizes every tiny draft checkpoint is shrunk to, on whichever spelling the config knows.
SHRINK: dict[str, Any] = {
    "hidden_size": 64,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "intermediate_size": 128,
    "max_position_embeddings": 256,
    "initializer_range": 0.15,
}
#: Native names of an attention's output projection, of an MLP's down projection and activation.
OUTPUT_NAMES = ("o_proj", "dense", "out_proj", "c_proj", "wo", "proj")
DOWN_NAMES = ("down_proj", "c_proj", "fc2", "dense_4h_to_h", "w2", "fc_out", "wo", "proj_out")
ACT_NAMES = ("act_fn", "act", "activation_fn", "activation", "gelu_impl", "act_func")


@dataclass
class Sublayer:
    """Where one sublayer sits in the block's forward."""

    native: str
    pre_norm: str | None = None
    post_norm: str | None = None
    scaled: str | None = None  # the add line, when the contribution is scaled before it


@dataclass
class Analysis:
    """Everything the draft is written from."""

    model_type: str
    module_name: str
    modeling_module: str
    config: Any
    overrides: dict[str, Any]
    container: str
    layers: str
    embed: str | None
    norm: str | None
    head: str | None
    block_class: str
    attention_class: str | None
    mlp_class: str | None
    attention: Sublayer | None
    mlp: Sublayer | None
    parallel: bool = False
    returns_tuple: bool = False
    interface_gap: str | None = None
    split_qkv: bool = False
    o_proj: str | None = None
    down_proj: str | None = None
    act_fn: str | None = None
    gated: bool = False
    plain_up: bool = False
    fused_gate_up: bool = False
    width_key: str | None = None
    own_sizes: dict[str, str] = field(default_factory=dict)
    after_head: str | None = None
    needs_person: list[str] = field(default_factory=list)


def _set(config: Any, key: str, value: Any) -> bool:
    """Set `key` where the config spells it (an attribute map counts); `False` where it has no such key."""
    mapped = getattr(config, "attribute_map", {}).get(key, key)
    try:
        if not hasattr(config, mapped) and not hasattr(config, key):
            return False
        setattr(config, key, value)
    except Exception:  # a derived (read-only) or per-layer size follows the others or stays for a person
        return False
    return True


def shrink(model_type: str) -> tuple[Any, dict[str, Any]]:
    """A tiny config of `model_type` and the overrides that made it (as a tiny-checkpoint entry takes them)."""
    import transformers
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    if model_type not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        raise ValueError(
            f"{model_type!r} is not a causal-LM model_type of transformers {transformers.__version__}; "
            "the scaffold drafts the types AutoModelForCausalLM builds"
        )
    config = AutoConfig.for_model(model_type)
    config = config.get_text_config() if hasattr(config, "get_text_config") else config
    overrides: dict[str, Any] = {}
    for key, value in SHRINK.items():
        if _set(config, key, value):
            overrides[key] = value
    for key, value in sorted(config.to_dict().items()):
        if "drop" in key and isinstance(value, float) and value:
            setattr(config, key, 0.0)
            overrides[key] = 0.0
    kinds = getattr(config, "layer_types", None)
    if isinstance(kinds, list) and kinds:
        distinct = list(dict.fromkeys(kinds))
        layers = max(len(distinct), 2)
        chosen = (distinct * layers)[:layers]
        config.layer_types = chosen
        config.num_hidden_layers = layers
        overrides["layer_types"] = chosen
        overrides["num_hidden_layers"] = layers
    return config, overrides


def _children(module: torch.nn.Module) -> dict[str, torch.nn.Module]:
    return dict(module.named_children())


def _is_norm(module: torch.nn.Module) -> bool:
    return "norm" in type(module).__name__.lower()


def _find_tree(model: torch.nn.Module, config: Any) -> tuple[str, str, str | None, str | None, str | None]:
    """(container, layers, embedding, final norm, head), as native paths (container relative to the root)."""
    layers_count = config.num_hidden_layers
    vocab = config.vocab_size
    lists = [n for n, m in model.named_modules() if isinstance(m, torch.nn.ModuleList) and len(m) == layers_count]
    if not lists:
        raise ValueError(f"no list of {layers_count} blocks in the module tree")
    path = lists[0]
    container, _, layers = path.rpartition(".")
    prefix = f"{container}." if container else ""
    inner = model.get_submodule(container) if container else model
    embed = norm = None
    seen_layers = False
    for name, child in inner.named_children():
        if f"{prefix}{name}" == path:
            seen_layers = True
        elif isinstance(child, torch.nn.Embedding) and child.num_embeddings == vocab and embed is None:
            embed = name
        elif seen_layers and _is_norm(child):
            norm = name
    head = next(
        (n for n, m in model.named_children() if isinstance(m, torch.nn.Linear) and m.out_features == vocab), None
    )
    return container, layers, embed, norm, head


def _forward_tree(kind: type) -> list[ast.stmt]:
    source = textwrap.dedent(inspect.getsource(kind.forward))
    function = ast.parse(source).body[0]
    return function.body  # type: ignore[attr-defined]


def _self_calls(node: ast.AST) -> list[str]:
    """The `self.<name>(...)` calls in `node`, innermost first."""
    calls = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and isinstance(sub.func.value, ast.Name):
            if sub.func.value.id == "self":
                calls.append(sub.func.attr)
    return list(reversed(calls))


def _passes_residual(node: ast.stmt) -> bool:
    """Whether a statement hands a variable named like the residual to a call."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            for arg in [*sub.args, *(k.value for k in sub.keywords)]:
                if isinstance(arg, ast.Name) and "residual" in arg.id:
                    return True
    return False


def _is_add(node: ast.stmt) -> bool:
    value = getattr(node, "value", None)
    return any(isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Add) for sub in ast.walk(value or node))


def _scaled(node: ast.stmt) -> bool:
    value = getattr(node, "value", None)
    return any(isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Mult, ast.Div)) for sub in ast.walk(value or node))


def _read_block(analysis: Analysis, block: torch.nn.Module, attn: str | None, mlp: str | None) -> None:
    """Place the norms, adds and scales around each sublayer from the block's forward statements."""
    kinds = {name: ("norm" if _is_norm(child) else "other") for name, child in _children(block).items()}
    if attn:
        kinds[attn] = "attn"
    if mlp:
        kinds[mlp] = "mlp"
    statements = _forward_tree(type(block))
    source_lines = textwrap.dedent(inspect.getsource(type(block).forward)).splitlines()
    events: list[tuple[str, str | None, ast.stmt]] = []  # (kind, child, statement)
    for statement in statements:
        if isinstance(statement, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
            calls = [c for c in _self_calls(statement) if kinds.get(c) in ("attn", "mlp", "norm")]
            if calls:
                line = source_lines[statement.lineno - 1].strip()
                analysis.needs_person.append(f"block forward line {statement.lineno} is conditional: {line!r}")
            continue
        calls = [c for c in _self_calls(statement) if c in kinds]
        for call in calls:
            events.append((kinds[call], call, statement))
            if kinds[call] in ("attn", "mlp") and _passes_residual(statement):
                line = source_lines[statement.lineno - 1].strip()
                analysis.needs_person.append(
                    f"the {call} call takes the residual and adds it itself (line {statement.lineno}: {line!r}): "
                    "its output is the stream, so its contribution is a tensor inside its forward"
                )
        if _is_add(statement) and not calls:
            events.append(("add", None, statement))
        if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Tuple):
            analysis.returns_tuple = True
    subs: dict[str, Sublayer] = {}
    pending_norm: str | None = None
    current: Sublayer | None = None
    for kind, child, statement in events:
        if kind == "norm":
            if current is not None and current.post_norm is None and not getattr(current, "_added", False):
                current.post_norm = child
            else:
                pending_norm = child
        elif kind in ("attn", "mlp"):
            sub = Sublayer(child, pre_norm=pending_norm)
            subs[kind] = sub
            if kind == "mlp" and "attn" in subs and not getattr(subs["attn"], "_added", False):
                analysis.parallel = True
                if sub.pre_norm is None:
                    sub.pre_norm = subs["attn"].pre_norm
            pending_norm = None
            current = sub
        elif kind == "add":
            targets = [s for s in subs.values() if not getattr(s, "_added", False)]
            for sub in targets:
                sub._added = True  # type: ignore[attr-defined]
                if _scaled(statement):
                    sub.scaled = source_lines[statement.lineno - 1].strip()
            current = None
    if pending_norm is not None:
        analysis.needs_person.append(f"a norm ({pending_norm}) follows the last residual add: a post-LN block")
    analysis.attention = subs.get("attn")
    analysis.mlp = subs.get("mlp")
    for name, sub in subs.items():
        if sub.scaled:
            analysis.needs_person.append(
                f"the block scales the {name} contribution before adding it: {sub.scaled!r}; "
                f"point {'attention_output' if name == 'attn' else 'mlp_output'} at the scaled tensor"
            )


def _head_ops(model: torch.nn.Module) -> str | None:
    """What the causal-LM forward does to the head's output, as the draft's `project_on_vocab` writes it."""
    try:
        source = inspect.getsource(type(model).forward)
    except (OSError, TypeError):
        return None
    if "final_logit_softcapping" in source:
        return "softcap"
    if "logit_scale" in source:
        return "logit_scale"
    if "logits_scaling" in source:
        return "logits_scaling"
    return None


def analyze(model_type: str) -> Analysis:
    """Read the standard values' places off a tiny instance of `model_type` and its forwards."""
    from transformers import AutoModelForCausalLM

    from nnterp.families import module_name
    from nnterp.families.default import interface_gap

    config, overrides = shrink(model_type)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config).eval()
    container, layers, embed, norm, head = _find_tree(model, config)
    block = model.get_submodule(f"{container}.{layers}" if container else layers)[0]
    children = _children(block)
    attn = next((n for n, c in children.items() if "attention" in type(c).__name__.lower()), None)
    mlp = next(
        (n for n, c in children.items() if any(k in type(c).__name__.lower() for k in ("mlp", "feedforward", "ffn"))),
        None,
    )
    analysis = Analysis(
        model_type=model_type,
        module_name=module_name(model_type),
        modeling_module=type(model).__module__,
        config=config,
        overrides=overrides,
        container=container,
        layers=layers,
        embed=embed,
        norm=norm,
        head=head,
        block_class=type(block).__name__,
        attention_class=type(children[attn]).__name__ if attn else None,
        mlp_class=type(children[mlp]).__name__ if mlp else None,
        attention=None,
        mlp=None,
    )
    for missing, label in ((attn, "attention"), (mlp, "MLP")):
        if missing is None:
            analysis.needs_person.append(f"no {label} child found on {type(block).__name__}")
    _read_block(analysis, block, attn, mlp)
    if attn:
        module = children[attn]
        analysis.interface_gap = interface_gap(type(module))
        if analysis.interface_gap:
            analysis.needs_person.append(f"the attention interior: {analysis.interface_gap}")
        analysis.o_proj = next((n for n in OUTPUT_NAMES if n in _children(module)), None)
        # Queries split out of one fused projection are views that torch refuses to edit in place.
        analysis.split_qkv = ".split(" in inspect.getsource(type(module).forward)
    if mlp:
        parts = _children(children[mlp])
        analysis.down_proj = next((n for n in DOWN_NAMES if n in parts), None)
        analysis.act_fn = next((n for n in ACT_NAMES if n in parts), None)
        analysis.gated = "gate_proj" in parts and "up_proj" in parts
        analysis.plain_up = "up_proj" in parts and "gate_proj" not in parts
        analysis.fused_gate_up = "gate_up_proj" in parts
        down = parts.get(analysis.down_proj) if analysis.down_proj else None
        width = getattr(down, "in_features", None)
        if width is not None and getattr(config, "intermediate_size", None) != width:
            keys = [k for k, v in sorted(config.to_dict().items()) if v == width and isinstance(v, int)]
            analysis.width_key = keys[0] if keys else None
            analysis.own_sizes["intermediate_size"] = "the MLP width read off block 0's down projection"
        if analysis.down_proj is None:
            analysis.needs_person.append(f"no down projection named {DOWN_NAMES} on {type(children[mlp]).__name__}")
    analysis.after_head = _head_ops(model)
    return analysis

