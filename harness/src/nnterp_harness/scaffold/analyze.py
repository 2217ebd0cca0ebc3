"""What a causal-LM type's code says about its standard values: read off a tiny instance and its forwards' source.

`analyze(model_type)` builds the type from a shrunk config of the installed
transformers (nothing is downloaded; one forward proves the shrunk sizes agree),
finds the containers, the block's children and the head in the module tree, and
walks the block's `forward` statement by statement to place each sublayer's norm,
contribution and residual add. A branch on the block's own attributes is decided on
the instance; a mixture of experts is placed from its children (router, experts,
shared expert) and the order of its router's operations; a feed-forward path the
block runs inline, an `nn.Sequential` MLP and a multiplier on each contribution are
recognized. A norm is a post-norm only where it reads the sublayer's output; a
sublayer that adds the residual itself is read where its forward takes the
contribution; an add into a sublayer's output in place is read on a copy; a scale on
the head's input or output enters the logit lens. What it cannot place is recorded in
`Analysis.needs_person`, naming the forward line.
"""

from __future__ import annotations

import ast
import copy
import inspect
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import torch

from ..entry import COMMON

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
#: Latent attention's sizes (a low-rank query and key/value, a rotated and a plain part of each head).
LATENT: dict[str, int] = {
    "q_lora_rank": 32,
    "kv_lora_rank": 32,
    "qk_rope_head_dim": 8,
    "qk_nope_head_dim": 16,
    "v_head_dim": 16,
}
#: A mixture's sizes: eight routed experts, two per token, narrow experts, groups of two.
MIXTURE: dict[str, int] = {
    "num_experts": 8,
    "num_local_experts": 8,
    "n_routed_experts": 8,
    "moe_num_experts": 8,
    "num_experts_per_tok": 2,
    "moe_k": 2,
    "moe_intermediate_size": 32,
    "shared_expert_intermediate_size": 64,
}
#: Block attributes that scale each contribution, as `nnterp.components.scaled` reads them.
MULTIPLIERS = ("residual_multiplier", "residual_scale")
#: Names a block's MLP (or mixture) child goes by, when its class name does not say so.
MLP_NAMES = ("mlp", "ffn", "feed_forward", "block_sparse_moe", "moe")
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
    multiplier: str | None = None  # the block attribute that scales it, as the scaled components read it
    adds_residual: bool = False  # the sublayer takes the residual and returns the stream
    added_into: str | None = None  # the line where the block adds another tensor into its output in place
    inside: str | None = None  # then the key, on the sublayer, of the contribution inside its forward


@dataclass
class Mixture:
    """Where a mixture of experts keeps its router, experts and shared expert (`nnterp.components.Moe`'s attributes)."""

    class_name: str
    scoring: str
    router: str
    logits: str | None
    experts: str
    indices: int
    weights: int
    shared: str | None = None
    shared_child: str | None = None
    shared_class: str | None = None
    sourced: bool = False
    scale: str | None = None  # the module attribute the forward multiplies the experts' output by
    scaled: str | None = None  # and the binding of the forward that holds the product


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
    premix_norm: str | None = None
    premix_product: str | None = None  # the line that multiplies the head outputs before the output projection
    latent: bool = False
    mlp_generic: bool = False
    inline_mlp: tuple[str, str] | None = None
    flat: bool = False
    mixture: Mixture | None = None
    dense_mlp_class: str | None = None
    neurons_norm: str | None = None
    o_proj: str | None = None
    down_proj: str | None = None
    act_fn: str | None = None
    gated: bool = False
    plain_up: bool = False
    fused_gate_up: bool = False
    width_key: str | None = None
    own_sizes: dict[str, str] = field(default_factory=dict)
    after_head: str | None = None
    before_head: str | None = None
    interface_calls: list[int] = field(default_factory=list)
    head_dim_per_block: bool = False
    kv_heads_attribute: str | None = None
    container_class: str | None = None
    norm_calls: int = 1
    mixers: list[str] = field(default_factory=list)
    mlp_norm_first: bool = False
    needs_person: list[str] = field(default_factory=list)


#: The vocabulary the draft's analysis instance is built with (the harness tokenizer's size).
ANALYSIS_VOCAB = 1024


def _has(config: Any, key: str) -> bool:
    """Whether the config spells `key` itself or maps it (`attribute_map`) to a key it holds, and may set it.

    A derived size (a property without a setter) is not set: it follows the others.
    A size held per block is set on the config as a whole and per block where it varies.
    """
    mapped = getattr(config, "attribute_map", {}).get(key, key)
    for name in dict.fromkeys((mapped, key)):
        attribute = getattr(type(config), name, None)
        if isinstance(attribute, property):
            return attribute.fset is not None
        try:
            if hasattr(config, name):
                return True
        except Exception:  # a per-block size refuses the global read, and is set all the same
            return True
    return False


def _sets(config: Any, key: str) -> bool:
    """Whether the config takes a value for `key`: a setter that refuses every value (a size it has none of) does not."""
    attribute = getattr(type(config), key, None)
    if not isinstance(attribute, property) or attribute.fset is None:
        return True
    try:
        attribute.fset(copy.copy(config), SHRINK[key])
    except NotImplementedError:
        return False
    except Exception:  # a value refused for how it sits with the others is set all the same
        return True
    return True


def _run_length(value: Any) -> bool:
    """Whether `value` is a run-length list of block kinds: `[[[kind, ...], repeats], ...]`."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(item, (list, tuple))
            and len(item) == 2
            and isinstance(item[0], (list, tuple))
            and all(isinstance(kind, str) for kind in item[0])
            and isinstance(item[1], int)
            for item in value
        )
    )


def _overrides(config: Any) -> dict[str, Any]:
    """The keyword overrides that shrink `config`'s type to a tiny checkpoint, read off its default config."""
    overrides: dict[str, Any] = {
        key: value for key, value in SHRINK.items() if _has(config, key) and _sets(config, key)
    }
    values = config.to_dict()
    if isinstance(values.get("kv_lora_rank"), int):
        overrides.update({key: value for key, value in LATENT.items() if values.get(key) is not None})
        # Latent attention decompresses one key and value per query head.
        overrides["num_key_value_heads"] = SHRINK["num_attention_heads"]
        if "head_dim" in overrides and values.get("head_dim") == values.get("qk_rope_head_dim"):
            overrides["head_dim"] = LATENT["qk_rope_head_dim"]  # the config's head width is the rotated part
    for key, value in MIXTURE.items():
        if key in values and (values[key] is None or isinstance(values[key], int)):
            overrides[key] = value
    for key, value in values.items():
        if key.endswith("shared_experts") and key.startswith("n") and value is None:
            overrides[key] = 1  # a shared-expert count left unset breaks the build
    try:
        width = config.hidden_size // config.num_attention_heads
    except Exception:  # a config without one head count (or one width) has no head width to match
        width = None
    for key, value in values.items():
        if "head_dim" in overrides or "head" not in key or "heads" in key or key.startswith(("n_", "num")):
            continue
        if value == width and key not in overrides:
            overrides[key] = SHRINK["head_dim"]  # a head width the config spells its own way (`d_head`)
    if values.get("use_cache") is False:
        overrides["use_cache"] = True  # a default config that does not cache would decode the whole prompt again
    if isinstance(values.get("n_group"), int) and values["n_group"] > 1:
        overrides.update(n_group=4, topk_group=2)
    if isinstance(values.get("first_k_dense_replace"), int) and values["first_k_dense_replace"] > 0:
        overrides["first_k_dense_replace"] = 1  # one dense block, then the mixture's
    for key, value in sorted(values.items()):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        if "drop" in key and isinstance(value, float) and value:
            overrides[key] = 0.0
        elif "rotary" in key and key.endswith("dim") and isinstance(value, int) and value > SHRINK["head_dim"] // 2:
            # A rotated width wider than the shrunk head no longer fits it.
            overrides[key] = SHRINK["head_dim"] // 2
        elif "per_layer" in key and key.startswith("vocab_size") and isinstance(value, int):
            overrides[key] = ANALYSIS_VOCAB
        elif "per_layer" in key and key.startswith("hidden_size") and isinstance(value, int) and value > 8:
            overrides[key] = 8
        elif "multiplier" in key and value == 1.0:
            # A multiplier left at one hides a draft that forgets it.
            overrides[key] = 0.5
    kinds = getattr(config, "layer_types", None)
    settable = _has(config, "layer_types")  # a list derived from other keys follows them
    if settable and isinstance(kinds, list) and kinds and all(isinstance(kind, str) for kind in kinds):
        distinct = list(dict.fromkeys(kinds))
        layers = max(len(distinct), 2)
        shared = [k for k, v in values.items() if "shared_layers" in k and isinstance(v, int) and v > 0]
        if shared:
            # The last blocks reuse an earlier block's keys and values: one block more, reusing the first kind's.
            layers = len(distinct) + 1
            overrides.update(dict.fromkeys(shared, 1))
        overrides["layer_types"] = (distinct * layers)[:layers]
        overrides["num_hidden_layers"] = layers
        per_layer = values.get("per_layer_config")
        if isinstance(per_layer, dict) and per_layer:
            overrides["per_layer_config"] = _per_layer(per_layer, kinds, overrides["layer_types"])
    for key, value in sorted(values.items()):
        if _run_length(value):
            distinct = list(dict.fromkeys(kind for kinds, _ in value for kind in kinds))
            overrides[key] = [[distinct, 1]]
            overrides["num_hidden_layers"] = len(distinct)
    return overrides


def _per_layer(per_layer: dict[str, Any], kinds: list[str], kept: list[str]) -> dict[str, Any]:
    """Per-block config overrides re-indexed onto the kept blocks, each taking those of a block of its kind.

    A head width held per block becomes twice the shrunk head, so it still differs from the others.
    """
    width = len(next(iter(per_layer)))
    result: dict[str, Any] = {}
    for index, kind in enumerate(kept):
        source = next((i for i, k in enumerate(kinds) if k == kind and f"{i:0{width}d}" in per_layer), None)
        if source is None:
            continue
        values = dict(per_layer[f"{source:0{width}d}"])
        for key, value in values.items():
            if key.endswith("head_dim") and isinstance(value, int):
                values[key] = 2 * SHRINK["head_dim"]
        result[f"{index:0{width}d}"] = values
    return result


def _analysis_settings() -> dict[str, Any]:
    """The settings every tiny checkpoint gets before its overrides: the harness's own."""
    return dict(COMMON)


def _text(config: Any) -> Any:
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def _build(model_type: str, overrides: dict[str, Any]) -> tuple[Any, torch.nn.Module]:
    """The tiny config and instance `overrides` make, after one forward proves they run."""
    from transformers import AutoConfig, AutoModelForCausalLM

    config = _text(AutoConfig.for_model(model_type, **{**_analysis_settings(), **overrides}))
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config).eval()
    with torch.no_grad():
        model(input_ids=torch.arange(1, 7)[None], use_cache=False)
    return config, model


def _repair(config: Any, overrides: dict[str, Any], error: Exception) -> bool:
    """Add to `overrides` what a failed build says is missing; `False` when it names nothing the scaffold can fill."""
    kinds = overrides.get("layer_types") or getattr(config, "layer_types", None) or []
    rope = getattr(config, "rope_parameters", None)
    if isinstance(error, KeyError) and error.args and error.args[0] in kinds and "rope_parameters" not in overrides:
        # Rotary settings kept per block kind, empty by default: every kind gets the default rotation.
        base = {"rope_type": "default", "rope_theta": float((rope or {}).get("rope_theta", 10000.0))}
        overrides["rope_parameters"] = {kind: dict(base) for kind in dict.fromkeys(kinds)}
        return True
    per_kind = overrides.get("rope_parameters")
    if isinstance(per_kind, dict) and not any("mrope_section" in (v or {}) for v in per_kind.values()):
        modeling = sys.modules.get(type(config).__module__.replace(".configuration_", ".modeling_"))
        if modeling is not None and "mrope_section" in inspect.getsource(modeling):
            # Multimodal rotary sections sized for the full head: split the shrunk head's frequencies in three.
            half = SHRINK["head_dim"] // 2
            section = [half - 2 * (half // 3), half // 3, half // 3]
            for value in per_kind.values():
                value["mrope_section"] = sorted(section, reverse=True)
            return True
    return False


def shrink(model_type: str) -> tuple[Any, dict[str, Any], torch.nn.Module]:
    """A tiny config of `model_type`, the overrides that made it (as a tiny-checkpoint entry takes them), its instance."""
    import transformers
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    if model_type not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        raise ValueError(
            f"{model_type!r} is not a causal-LM model_type of transformers {transformers.__version__}; "
            "the scaffold drafts the types AutoModelForCausalLM builds"
        )
    default = _text(AutoConfig.for_model(model_type))
    overrides = _overrides(default)
    while True:
        try:
            config, model = _build(model_type, overrides)
        except Exception as error:
            if _repair(default, overrides, error):
                continue
            raise
        if _unused_kv_heads(model, overrides):
            # The config derives its key/value head count (a multi-query flag): the shrink's own is dropped.
            del overrides["num_key_value_heads"]
            continue
        return config, overrides, model


def _unused_kv_heads(model: torch.nn.Module, overrides: dict[str, Any]) -> bool:
    """Whether the attentions keep another key/value head count than the one the shrink set."""
    wanted = overrides.get("num_key_value_heads")
    if wanted is None:
        return False
    for module in model.modules():
        if "attention" in type(module).__name__.lower():
            for name in KV_HEAD_ATTRIBUTES:
                value = getattr(module, name, None)
                if isinstance(value, int) and not isinstance(value, bool):
                    return value != wanted
    return False


def _children(module: torch.nn.Module) -> dict[str, torch.nn.Module]:
    return dict(module.named_children())


def _is_norm(module: torch.nn.Module) -> bool:
    return "norm" in type(module).__name__.lower()


class Unplaceable(ValueError):
    """A type the scaffold cannot draft; `needs_person` says why, naming the forward line where it can."""

    def __init__(self, message: str, needs_person: list[str]):
        super().__init__(message)
        self.needs_person = needs_person


def _unlisted_blocks(model: torch.nn.Module, layers_count: int) -> list[str]:
    """Why no list of blocks is `num_hidden_layers` long: the lists there are, and the loop that runs them."""
    lists = {
        n: m
        for n, m in model.named_modules()
        if isinstance(m, torch.nn.ModuleList) and len(m) and any(k in type(m[0]).__name__ for k in ("Layer", "Block"))
    }
    if not lists:
        return [f"the module tree holds no list of blocks (the config says {layers_count})"]
    where = ", ".join(f"{n} ({len(m)} {type(m[0]).__name__})" for n, m in lists.items())
    found = [f"the blocks sit in {where}, none of them the config's num_hidden_layers ({layers_count}) long"]
    parent = next(iter(lists)).split(".")[0]
    inner = model.get_submodule(parent) if len(lists) > 1 else None
    if inner is not None:
        source = textwrap.dedent(_source(type(inner)))
        try:
            loops = [node for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.For, ast.While))]
        except SyntaxError:
            loops = []
        if loops:
            first = min(loops, key=lambda node: node.lineno)
            line = source.splitlines()[first.lineno - 1].strip()
            found[0] += (
                f": {type(inner).__name__} runs them in a loop of its own (forward line {first.lineno}: {line!r}); "
                "a family for it reads each block per pass, which the draft does not place"
            )
    return found


def _find_tree(model: torch.nn.Module, config: Any) -> tuple[str, str, str | None, str | None, str | None]:
    """(container, layers, embedding, final norm, head), as native paths (container relative to the root)."""
    layers_count = config.num_hidden_layers
    vocab = config.vocab_size
    lists = [n for n, m in model.named_modules() if isinstance(m, torch.nn.ModuleList) and len(m) == layers_count]
    if not lists:
        raise Unplaceable(f"no list of {layers_count} blocks in the module tree", _unlisted_blocks(model, layers_count))
    path = lists[0]
    container, _, layers = path.rpartition(".")
    prefix = f"{container}." if container else ""
    inner = model.get_submodule(container) if container else model
    embed = None
    norms_after: list[str] = []
    norms: list[str] = []
    seen_layers = False
    for name, child in inner.named_children():
        if f"{prefix}{name}" == path:
            seen_layers = True
        elif isinstance(child, torch.nn.Embedding) and child.num_embeddings == vocab and embed is None:
            embed = name
        elif _is_norm(child):
            (norms_after if seen_layers else norms).append(name)
    # The final norm is declared after the blocks, or before them in a container that builds it first.
    norm = (norms_after or norms or [None])[-1]
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


def _passes_residual(node: ast.stmt, name: str) -> bool:
    """Whether a statement hands a variable named like the residual to the call of `self.<name>` itself."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == name:
            for arg in [*sub.args, *(k.value for k in sub.keywords)]:
                if isinstance(arg, ast.Name) and "residual" in arg.id:
                    return True
    return False


def _residual_parameter(statement: ast.stmt, name: str, child: torch.nn.Module) -> str | None:
    """The parameter of `self.<name>`'s forward that the block hands the residual to."""
    try:
        parameters = list(inspect.signature(type(child).forward).parameters)[1:]
    except (TypeError, ValueError):
        return None
    for sub in ast.walk(statement):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == name:
            for index, arg in enumerate(sub.args):
                if isinstance(arg, ast.Name) and "residual" in arg.id and index < len(parameters):
                    return parameters[index]
            for keyword in sub.keywords:
                if isinstance(keyword.value, ast.Name) and "residual" in keyword.value.id:
                    return keyword.arg
    return None


def _call_name(call: ast.Call) -> str:
    """A call's name in nnsight's `.source` of a forward: its dotted callee with `_` for each dot."""
    return ast.unparse(call.func).replace(".", "_")


def _inside_contribution(module: torch.nn.Module, residual: str | None) -> str | None:
    """Where a sublayer that adds the residual itself holds its contribution, as a key on it; `None` where unclear.

    The first use of the residual in its forward decides: a call that takes the
    contribution first and the residual after (`dropout_add(output, residual, ...)`)
    gives that call's input; a sum `output + residual` gives the operation that bound
    `output` (a child's output, or a call's in the forward's source).
    """
    if residual is None:
        return None
    children = _children(module)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(type(module).forward)))
    except (OSError, TypeError, SyntaxError):
        return None
    calls = sorted(
        (node for node in ast.walk(tree) if isinstance(node, ast.Call)), key=lambda node: (node.lineno, node.col_offset)
    )

    def key(call: ast.Call, end: str) -> str | None:
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            if func.attr in children:
                return f"{func.attr}.{end}"
        name = _call_name(call)
        count = sum(
            1 for other in calls if other is not call and _call_name(other) == name and other.lineno < call.lineno
        )
        return f"source.{name}_{count}.{end}"

    def uses(node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == residual

    statements = sorted(
        (node for node in ast.walk(tree) if isinstance(node, ast.stmt) and not isinstance(node, ast.FunctionDef)),
        key=lambda node: node.lineno,
    )
    for statement in statements:
        if isinstance(statement, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and node.args and any(uses(arg) for arg in node.args[1:]):
                return key(node, "input") if not uses(node.args[0]) else None
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and (uses(node.right) or uses(node.left)):
                other = node.left if uses(node.right) else node.right
                if not isinstance(other, ast.Name):
                    return None
                binding = [
                    earlier
                    for earlier in statements
                    if earlier.lineno < statement.lineno
                    and isinstance(earlier, ast.Assign)
                    and other.id in _bound(earlier)
                ]
                value = binding[-1].value if binding else None
                return key(value, "output") if isinstance(value, ast.Call) else None
    return None


def _is_add(node: ast.stmt) -> bool:
    value = getattr(node, "value", None)
    return any(isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Add) for sub in ast.walk(value or node))


def _adds_in_call(node: ast.stmt) -> bool:
    """Whether a statement hands a name like the residual to a plain function (`bias_dropout_add(x, residual=...)`)."""
    value = getattr(node, "value", None)
    for sub in ast.walk(value or node):
        if isinstance(sub, ast.Call) and not ast.unparse(sub.func).startswith("self."):
            named = [k for k in sub.keywords if k.arg and "residual" in k.arg]
            passed = [a for a in [*sub.args, *(k.value for k in sub.keywords)] if isinstance(a, ast.Name)]
            if named or any("residual" in a.id for a in passed):
                return True
    return False


def _scaled(node: ast.stmt) -> bool:
    value = getattr(node, "value", None)
    return any(
        isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Mult, ast.Div)) for sub in ast.walk(value or node)
    )


def _decide(test: ast.expr, block: torch.nn.Module) -> bool | None:
    """The value of a condition that reads only the block's own attributes (`self.x`, `self.config.y`), else `None`."""
    names = {node.id for node in ast.walk(test) if isinstance(node, ast.Name)}
    if names - {"self", "None", "True", "False"}:
        return None
    try:
        return bool(eval(compile(ast.Expression(test), "<condition>", "eval"), {"__builtins__": {}}, {"self": block}))
    except Exception:  # a condition that does not evaluate on the instance stays for a person
        return None


def _taken(
    analysis: Analysis, block: torch.nn.Module, statements: list[ast.stmt], kinds: dict[str, str], lines: list[str]
) -> list[ast.stmt]:
    """The statements the tiny instance runs, branches decided on its attributes; the rest is named for a person."""
    taken: list[ast.stmt] = []
    for statement in statements:
        sublayers = [c for c in _self_calls(statement) if kinds.get(c) in ("attn", "mlp", "norm")]
        line = lines[statement.lineno - 1].strip()
        if isinstance(statement, ast.If):
            decided = _decide(statement.test, block)
            if decided is None:
                if sublayers:
                    analysis.needs_person.append(f"block forward line {statement.lineno} is conditional: {line!r}")
                continue
            other = ast.Module(body=statement.orelse if decided else statement.body, type_ignores=[])
            unbuilt = sorted({c for c in _self_calls(other) if c not in kinds and not hasattr(type(block), c)})
            if sublayers or unbuilt:
                missing = (
                    f"; the other branch calls {', '.join(unbuilt)}, which block 0 of the tiny instance does not build"
                    if unbuilt
                    else ""
                )
                analysis.needs_person.append(
                    f"block forward line {statement.lineno} branches on the config ({line!r}): the draft follows "
                    f"the {'true' if decided else 'false'} branch, the default config's{missing}"
                )
            taken += _taken(analysis, block, statement.body if decided else statement.orelse, kinds, lines)
        elif isinstance(statement, ast.With):
            taken += _taken(analysis, block, statement.body, kinds, lines)
        elif isinstance(statement, (ast.For, ast.While, ast.Try)):
            if sublayers:
                analysis.needs_person.append(f"block forward line {statement.lineno} is a loop or a try: {line!r}")
        else:
            taken.append(statement)
    return taken


def _bound(statement: ast.stmt) -> set[str]:
    """The names an assignment binds: every plain name among its targets, the first of a tuple."""
    names: set[str] = set()
    for target in getattr(statement, "targets", []):
        if isinstance(target, ast.Tuple) and target.elts:
            target = target.elts[0]  # `output, weights = self.attn(...)`: the output comes first
        if isinstance(target, ast.Name):
            names.add(target.id)
    return names


def _reads_any(statement: ast.stmt, names: set[str]) -> bool:
    value = getattr(statement, "value", None)
    return any(isinstance(node, ast.Name) and node.id in names for node in ast.walk(value or statement))


def _reads_output(statement: ast.stmt, norm: str, outputs: set[str], kinds: dict[str, str]) -> bool:
    """Whether the call of the norm `self.<norm>` in `statement` norms the current sublayer's output (a post-norm).

    A norm whose argument is a name is a post-norm when that name holds the
    sublayer's output; one called inside the next sublayer's call is that sublayer's
    pre-norm; any other follows the sublayer it comes after.
    """
    call = next(
        (
            node
            for node in ast.walk(statement)
            if isinstance(node, ast.Call) and ast.unparse(node.func) == f"self.{norm}"
        ),
        None,
    )
    argument = call.args[0] if call is not None and call.args else None
    if isinstance(argument, ast.Name):
        return argument.id in outputs
    for node in ast.walk(statement):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and kinds.get(node.func.attr) in ("attn", "mlp")
            and any(sub is call for arg in [*node.args, *(k.value for k in node.keywords)] for sub in ast.walk(arg))
        ):
            return False
    return True


def _read_block(analysis: Analysis, block: torch.nn.Module, attn: str | None, mlp: str | None) -> None:
    """Place the norms, adds and scales around each sublayer from the block's forward statements."""
    kinds = {name: ("norm" if _is_norm(child) else "other") for name, child in _children(block).items()}
    if attn:
        kinds[attn] = "attn"
    if mlp:
        kinds[mlp] = "mlp"
    for name in analysis.mixers:
        if name in kinds:
            kinds[name] = "mixer"  # named for a person already; its norm is no post-norm
    source_lines = textwrap.dedent(inspect.getsource(type(block).forward)).splitlines()
    statements = _taken(analysis, block, _forward_tree(type(block)), kinds, source_lines)
    events: list[tuple[str, str | None, ast.stmt]] = []  # (kind, child, statement)
    takes_residual: set[str] = set()
    inside: dict[str, str | None] = {}  # where each sublayer that adds the residual itself holds its contribution
    for statement in statements:
        calls = [c for c in _self_calls(statement) if c in kinds]
        for call in calls:
            events.append((kinds[call], call, statement))
            if kinds[call] in ("attn", "mlp") and _passes_residual(statement, call):
                takes_residual.add(kinds[call])
                child = getattr(block, call)
                inside[kinds[call]] = _inside_contribution(child, _residual_parameter(statement, call, child))
                if inside[kinds[call]] is None:
                    line = source_lines[statement.lineno - 1].strip()
                    analysis.needs_person.append(
                        f"the {call} call takes the residual and adds it itself (line {statement.lineno}: {line!r}): "
                        "its output is the stream, so its contribution is a tensor inside its forward"
                    )
        if _is_add(statement) and not any(kinds[c] in ("attn", "mlp", "norm") for c in calls):
            events.append(("add", None, statement))
        elif _adds_in_call(statement) and not any(kinds[c] in ("attn", "mlp", "norm") for c in calls):
            events.append(("add", None, statement))
            line = source_lines[statement.lineno - 1].strip()
            analysis.needs_person.append(
                f"block forward line {statement.lineno} adds the residual inside a function call ({line!r}): "
                "the draft reads the contribution at the sublayer's output, before whatever that call adds to it"
            )
        elif isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add) and not calls:
            events.append(("into", None, statement))  # `mlp_output += attention_output`: an add into a tensor
        elif isinstance(statement, ast.Assign) and not any(kinds[c] in ("attn", "mlp", "norm") for c in calls):
            events.append(("pass", None, statement))  # a dropout or a rebinding may pass a sublayer's output on
        if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Tuple):
            analysis.returns_tuple = True
    subs: dict[str, Sublayer] = {}
    pending_norm: str | None = None
    pending_at = attn_at = -1
    norm_at: dict[str, int] = {}  # the event at which each sublayer's pre-norm runs (its own call where none)
    current: Sublayer | None = None
    outputs: set[str] = set()  # the names bound to the current sublayer's output (and what merely passes it on)
    for index, (kind, child, statement) in enumerate(events):
        if kind == "mixer":
            pending_norm = None
        elif kind == "norm":
            if current is not None and current.post_norm is None and not getattr(current, "_added", False):
                post = _reads_output(statement, child, outputs, kinds)
            else:
                post = False
            if post:
                current.post_norm = child
            else:
                pending_norm, pending_at = child, index
        elif kind in ("attn", "mlp"):
            sub = Sublayer(child, pre_norm=pending_norm)
            norm_at[kind] = pending_at if pending_norm else index
            subs[kind] = sub
            if kind == "mlp" and "attn" in subs and not getattr(subs["attn"], "_added", False):
                analysis.parallel = True
                if sub.pre_norm is None:
                    sub.pre_norm = subs["attn"].pre_norm
                # The MLP's norm runs before the attention where the two share one, or where it is called first.
                analysis.mlp_norm_first = sub.pre_norm is not None and (
                    sub.pre_norm == subs["attn"].pre_norm or norm_at["mlp"] < attn_at
                )
            if kind == "attn":
                attn_at = index
            pending_norm = None
            current = sub
            outputs = _bound(statement)
            if kind in takes_residual:
                sub._added = True  # type: ignore[attr-defined]  # its call returns the stream: the add is inside
                current = None
        elif kind == "add":
            targets = [s for s in subs.values() if not getattr(s, "_added", False)]
            for sub in targets:
                sub._added = True  # type: ignore[attr-defined]
                if _scaled(statement):
                    sub.scaled = source_lines[statement.lineno - 1].strip()
            current = None
        elif kind == "into" and current is not None and getattr(statement.target, "id", None) in outputs:
            # The block adds another tensor into the sublayer's output in place: its contribution is a copy.
            current.added_into = source_lines[statement.lineno - 1].strip()
        elif kind == "pass" and current is not None and _reads_any(statement, outputs):
            outputs |= _bound(statement)
    if pending_norm is not None:
        statement = events[pending_at][2]
        line = source_lines[statement.lineno - 1].strip()
        analysis.needs_person.append(
            f"a norm ({pending_norm}) follows the last residual add (block forward line {statement.lineno}: "
            f"{line!r}): a post-LN block"
        )
    for kind in takes_residual:
        if kind in subs:
            subs[kind].adds_residual = True
            subs[kind].inside = inside.get(kind)
    analysis.attention = subs.get("attn")
    analysis.mlp = subs.get("mlp")
    for name, sub in subs.items():
        if sub.scaled and any(f"self.{attr}" in sub.scaled for attr in MULTIPLIERS):
            sub.multiplier = next(attr for attr in MULTIPLIERS if f"self.{attr}" in sub.scaled)
        elif sub.scaled:
            analysis.needs_person.append(
                f"the block scales the {name} contribution before adding it: {sub.scaled!r}; "
                f"point {'attention_output' if name == 'attn' else 'mlp_output'} at the scaled tensor"
            )


def _nested_output(module: torch.nn.Module) -> str | None:
    """The output projection of an attention that wraps the one doing the arithmetic (`attention.out_proj`), or `None`."""
    found = [
        name
        for name, child in module.named_modules()
        if name.count(".") == 1 and name.rpartition(".")[2] in OUTPUT_NAMES and isinstance(child, torch.nn.Linear)
    ]
    return found[0] if len(found) == 1 else None


def _handed_on(analysis: Analysis, inner: torch.nn.Module) -> None:
    """Name a value each block hands the next one beside the stream: a skipped block hands on nothing there."""
    try:
        source = textwrap.dedent(inspect.getsource(type(inner).forward))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple)):
            continue
        if not isinstance(node.value, ast.Call) or not isinstance(node.value.func, ast.Name):
            continue
        later = {t.id for t in node.targets[0].elts[1:] if isinstance(t, ast.Name)}
        passed = [*node.value.args, *(k.value for k in node.value.keywords)]
        if later and any(isinstance(arg, ast.Name) and arg.id in later for arg in passed):
            line = source.splitlines()[node.lineno - 1].strip()
            analysis.needs_person.append(
                f"each block hands {', '.join(sorted(later))} on to the next beside the stream (inner model forward "
                f"line {node.lineno}: {line!r}): a skipped block must hand it on too, which the draft does not write"
            )
            return


def _embedding_edits(analysis: Analysis, inner: torch.nn.Module) -> None:
    """Name an in-place edit of the embedding output in the container's forward: the tensor served changes under it."""
    try:
        source = textwrap.dedent(inspect.getsource(type(inner).forward))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return
    embedded = {"inputs_embeds"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and f"self.{analysis.embed}(input_ids" in ast.unparse(node.value):
            embedded |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    lines = source.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id in embedded:
            line = lines[node.lineno - 1].strip()
            analysis.needs_person.append(
                f"the model edits the embedding output in place (line {node.lineno}: {line!r}): "
                "token_embeddings holds the edited tensor once the forward moves on"
            )


#: Tensor methods whose result is a view of their input (an in-place edit of it reaches the input).
VIEW_OPS = {"view", "reshape", "transpose", "permute", "to", "unflatten", "flatten", "squeeze", "unsqueeze", "expand"}
#: Operations that return several views of one tensor, which torch refuses to edit in place.
SPLIT_OPS = {"split", "chunk", "unbind", "tensor_split"}


def _interface_call(tree: ast.AST) -> ast.Call | None:
    """The first call of the shared attention interface in a forward."""
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("attention_interface")
    ]
    return min(calls, key=lambda node: node.lineno, default=None)


def _queries_split(kind: type) -> bool:
    """Whether the queries the attention hands the shared interface are views out of one `split` (or `chunk`).

    The queries' name is followed back through the forward's assignments: view
    operations pass it on, a split ends it (the queries are such a view), anything else
    (a rotary embedding, a norm, a concatenation) makes a fresh tensor.
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(kind.forward)))
    except (OSError, TypeError, SyntaxError):
        return False
    call = _interface_call(tree)
    if call is None or len(call.args) < 2 or not isinstance(call.args[1], ast.Name):
        return False
    assigns = sorted(
        (node for node in ast.walk(tree) if isinstance(node, ast.Assign) and len(node.targets) == 1),
        key=lambda node: node.lineno,
    )
    name, line = call.args[1].id, call.lineno
    while True:
        found = None
        for node in assigns:
            if node.lineno >= line:
                break
            target = node.targets[0]
            names = [target] if isinstance(target, ast.Name) else getattr(target, "elts", [])
            if any(isinstance(n, ast.Name) and n.id == name for n in names):
                found = node
        if found is None:
            return False
        value = found.value
        while True:
            if isinstance(value, ast.Subscript):
                value = value.value
            elif (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and value.func.attr in VIEW_OPS
                and ast.unparse(value.func.value) != "torch"
            ):
                value = value.func.value
            else:
                break
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in SPLIT_OPS:
            return True
        if not isinstance(value, ast.Name):
            return False
        name, line = value.id, found.lineno


def _rebinding_scale(statement: ast.stmt, name: str) -> str | None:
    """The scale a statement applies to `name` in place (`x = x * self.s`, `x /= self.s`), as `"* <expr>"`, else `None`.

    The scale's `self` is written as the model the draft's `project_on_vocab` takes (`model._module`).
    """
    op = value = None
    if isinstance(statement, ast.AugAssign) and getattr(statement.target, "id", None) == name:
        op, value = statement.op, statement.value
    elif (
        isinstance(statement, ast.Assign)
        and getattr(statement.targets[0], "id", None) == name
        and isinstance(statement.value, ast.BinOp)
        and getattr(statement.value.left, "id", None) == name
    ):
        op, value = statement.value.op, statement.value.right
    if not isinstance(op, (ast.Mult, ast.Div)) or value is None:
        return None
    if {node.id for node in ast.walk(value) if isinstance(node, ast.Name)} - {"self"}:
        return None
    expression = ast.unparse(value).replace("self.", "model._module.")
    return f"{'*' if isinstance(op, ast.Mult) else '/'} {expression}"


def _head_ops(model: torch.nn.Module, head: str | None) -> tuple[str | None, str | None]:
    """What the causal-LM forward does around the head: (before, after).

    `before` is the scale it applies to the head's input (`hidden_states =
    hidden_states / self.config.logits_scaling` ahead of the head call), `after`
    `"softcap"` or the scale it applies to the head's output (`logits = logits *
    self.logit_scale`); each is `"* <expr>"` or `"/ <expr>"`, or `None`.
    """
    try:
        source = textwrap.dedent(inspect.getsource(type(model).forward))
        body = ast.parse(source).body[0].body  # type: ignore[attr-defined]
    except (OSError, TypeError, SyntaxError):
        return None, None
    call = next(
        (
            (index, statement)
            for index, statement in enumerate(body)
            if head and isinstance(statement, ast.Assign) and f"self.{head}(" in ast.unparse(statement.value)
        ),
        None,
    )
    if call is None:
        return None, "softcap" if "final_logit_softcapping" in source else None
    index, statement = call
    before = None
    head_call = next(
        (
            node
            for node in ast.walk(statement.value)
            if isinstance(node, ast.Call) and ast.unparse(node.func) == f"self.{head}"
        ),
        None,
    )
    argument = head_call.args[0] if head_call is not None and head_call.args else None
    while isinstance(argument, ast.Subscript):
        argument = argument.value  # the positions kept (`hidden_states[:, slice_indices, :]`)
    if isinstance(argument, ast.Name):
        scales = [s for s in (_rebinding_scale(earlier, argument.id) for earlier in body[:index]) if s]
        before = " ".join(scales) or None
    if "final_logit_softcapping" in source:
        return before, "softcap"
    target = statement.targets[0]
    logits = target.id if isinstance(target, ast.Name) else None
    after = next((s for s in (_rebinding_scale(later, logits) for later in body[index + 1 :]) if s), None)
    return before, after


def _premix_product(kind: type, o_proj: str | None) -> str | None:
    """The line that multiplies the shared interface's output (a gate, a scale) before the output projection, or `None`."""
    try:
        source = textwrap.dedent(inspect.getsource(kind.forward))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return None
    call = _interface_call(tree)
    if call is None or o_proj is None:
        return None
    statements = sorted(
        (node for node in ast.walk(tree) if isinstance(node, ast.Assign) and node.lineno >= call.lineno),
        key=lambda node: node.lineno,
    )
    names = _bound(statements[0]) if statements else set()
    for statement in statements[1:]:
        if f"self.{o_proj}(" in ast.unparse(statement.value):
            return None
        reads = _reads_any(statement, names)
        if reads and any(
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mult)
            and any(_reads_any(ast.Expr(side), names) for side in (node.left, node.right))
            for node in ast.walk(statement.value)
        ):
            return source.splitlines()[statement.lineno - 1].strip()
        if reads:
            names |= _bound(statement)
    return None


def _norm_after(module: torch.nn.Module, marker: str) -> str | None:
    """A norm child the module's forward calls after `marker` (on the head outputs, on the neurons), or `None`."""
    try:
        source = inspect.getsource(type(module).forward)
    except (OSError, TypeError):
        return None
    start = source.find(marker)
    if start < 0:
        return None
    return next(
        (
            name
            for name, child in _children(module).items()
            if _is_norm(child) and f"self.{name}(" in source[start + len(marker) :]
        ),
        None,
    )


#: Parts of a config key that name a feed-forward width (a key of the same value without one is a coincidence).
WIDTH_HINTS = ("inner", "intermediate", "ffn", "ff_", "mlp", "filter")


def _width_keys(config: Any, width: int) -> list[str]:
    """The config keys that hold the MLP width `width` and are named like a feed-forward width."""
    return [
        key
        for key, value in sorted(config.to_dict().items())
        if value == width and isinstance(value, int) and any(hint in key for hint in WIDTH_HINTS)
    ]


def _mlp_child(block: torch.nn.Module, attn: str | None) -> str | None:
    """The block's MLP (or mixture) child: by its class name, else by its own name."""
    children = {n: c for n, c in _children(block).items() if n != attn and not _is_norm(c)}
    by_class = ("mlp", "feedforward", "ffn", "moe", "experts")
    found = next((n for n, c in children.items() if any(k in type(c).__name__.lower() for k in by_class)), None)
    return found or next((n for n in children if n in MLP_NAMES or "mlp" in n or "ffn" in n), None)


def _is_mixture(module: torch.nn.Module) -> bool:
    """Whether the module routes over experts: it has an experts child beside a router."""
    return any("expert" in n and "shared" not in n for n in _children(module))


def _inline_mlp(block: torch.nn.Module, attn: str | None) -> tuple[str, str] | None:
    """(up, down): the linear layers a block calls itself as its feed-forward path, in forward order, or `None`."""
    linears = [n for n, c in _children(block).items() if isinstance(c, torch.nn.Linear) and n != attn]
    if len(linears) < 2:
        return None
    source = inspect.getsource(type(block).forward)
    called = sorted((source.find(f"self.{n}("), n) for n in linears if f"self.{n}(" in source)
    if len(called) < 2:
        return None
    return called[0][1], called[-1][1]


def _flattens(kind: type) -> bool:
    """Whether the block's forward holds the stream flat over tokens (`[tokens, hidden]`) somewhere."""
    source = inspect.getsource(kind.forward)
    return any(f".{op}(-1" in source for op in ("reshape", "view"))


def _source(kind: type) -> str:
    try:
        return inspect.getsource(kind.forward)
    except (OSError, TypeError):
        return ""


def _scoring(source: str) -> str:
    """How a router scores its logits, read off the order of its operations."""
    if "sigmoid(" in source:
        return "sigmoid"
    soft, top = source.find("softmax("), source.find("topk(")
    if soft >= 0 and (top < 0 or soft < top):
        return "softmax"
    return "topk_softmax"


def _mixture(analysis: Analysis, module: torch.nn.Module) -> Mixture | None:
    """The `Moe` attributes of a mixture module, read off its children and forwards; `None` where it cannot place them."""
    parts = _children(module)
    experts = next((n for n in parts if "expert" in n and "shared" not in n), None)
    num = getattr(parts.get(experts), "num_experts", None) or getattr(analysis.config, "num_experts", None)
    router = next(
        (
            n
            for n, c in parts.items()
            if n != experts
            and "shared" not in n
            and (
                "router" in type(c).__name__.lower()
                or n in ("gate", "router")
                or getattr(c, "out_features", None) == num
            )
        ),
        None,
    )
    if experts is None or router is None:
        analysis.needs_person.append(f"the mixture {type(module).__name__}: no router or experts child found")
        return None
    router_module = parts[router]
    logits: str | None = None
    if not isinstance(router_module, torch.nn.Linear):
        router_source = _source(type(router_module))
        logits = "F_linear_0" if "F.linear(" in router_source else None
        if logits is None:
            analysis.needs_person.append(
                f"the router {type(router_module).__name__} computes its logits without F.linear: set LOGITS"
            )
    router_source = _source(type(router_module))
    if not any(op in router_source for op in ("softmax(", "sigmoid(")):
        # The router hands its logits back; the mixture's forward scores them (a gate on the shared expert aside).
        router_source = "\n".join(line for line in _source(type(module)).splitlines() if "shared" not in line)
    scoring = _scoring(router_source)
    if not any(op in router_source for op in ("softmax(", "sigmoid(", "topk(")):
        _unscored(analysis, type(router_module) if type(router_module).forward is not torch.nn.Linear.forward else None)
    signature = list(inspect.signature(type(parts[experts]).forward).parameters)[1:]
    indices = next((i for i, n in enumerate(signature) if "ind" in n), 1)
    if not any("ind" in n or "weight" in n or "score" in n for n in signature):
        source = textwrap.dedent(_source(type(module))).splitlines()
        line = next((n for n, text in enumerate(source, 1) if f"self.{experts}(" in text), None)
        where = f" (mixture forward line {line}: {source[line - 1].strip()!r})" if line else ""
        analysis.needs_person.append(
            f"the experts {type(parts[experts]).__name__} take no routing indices or weights{where}: the mixture "
            "weighs or picks their tokens itself, which the draft does not place"
        )
    weights = next((i for i, n in enumerate(signature) if "weight" in n), 2)
    mixture = Mixture(type(module).__name__, scoring, router, logits, experts, indices, weights)
    mixture.scale, mixture.scaled = _routed_scale(module, experts)
    shared = next((n for n in parts if "shared" in n and "gate" not in n), None)
    if shared is not None:
        mixture.shared_child = shared
        mixture.shared_class = type(parts[shared]).__name__
        mixture.shared, mixture.sourced = _shared_key(module, shared)
        if mixture.shared is None:
            analysis.needs_person.append(
                f"the mixture {type(module).__name__} scales its shared expert {shared} in its forward: point SHARED at the product"
            )
    _after_combine(analysis, module, {router, experts, shared, *(n for n in parts if "gate" in n)})
    return mixture


def _unscored(analysis: Analysis, kind: type | None) -> None:
    """Name a router that scores its logits by none of softmax, sigmoid or top-k: the draft's `SCORING` is a guess."""
    source = textwrap.dedent(_source(kind)) if kind is not None else ""
    lines = source.splitlines()
    where = ""
    try:
        tree = ast.parse(source) if source else None
    except SyntaxError:
        tree = None
    if tree is not None:
        calls = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            and any("weight" in ast.unparse(target) for target in node.targets)
            and isinstance(node.value, ast.Call)
        ]
        if calls:
            first = min(calls, key=lambda node: node.lineno)
            where = f" (router forward line {first.lineno}: {lines[first.lineno - 1].strip()!r})"
    name = kind.__name__ if kind is not None else "router"
    analysis.needs_person.append(
        f"the {name} scores its logits by none of softmax, sigmoid or top-k{where}: the draft's SCORING is a guess"
    )


def _routed_scale(module: torch.nn.Module, experts: str) -> tuple[str | None, str | None]:
    """(attribute, binding): where the mixture's forward multiplies the experts' output by one of its attributes.

    `hidden_states = hidden_states * self.routed_scaling_factor` after the experts
    ran gives `("routed_scaling_factor", "hidden_states_<n>")`, the binding counted
    over the forward's assignments to that name in line order; `(None, None)` otherwise.
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(type(module).forward)))
    except (OSError, TypeError, SyntaxError):
        return None, None
    assigns = sorted(
        (
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ),
        key=lambda node: node.lineno,
    )
    counts: dict[str, int] = {}
    routed = None
    for node in assigns:
        name = node.targets[0].id
        counts[name] = counts.get(name, -1) + 1
        if routed is None and f"self.{experts}(" in ast.unparse(node.value):
            routed = name
            continue
        value = node.value
        if routed == name and isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
            sides = (value.left, value.right)
            factor = next((side for side in sides if not (isinstance(side, ast.Name) and side.id == name)), None)
            if any(isinstance(side, ast.Name) and side.id == name for side in sides) and (
                isinstance(factor, ast.Attribute) and ast.unparse(factor.value) == "self"
            ):
                return factor.attr, f"{name}_{counts[name]}"
    return None, None


def _after_combine(analysis: Analysis, module: torch.nn.Module, known: set[str | None]) -> None:
    """Name a child the mixture's forward runs on the experts' sum after it: the sum is then not the module's output."""
    try:
        source = textwrap.dedent(inspect.getsource(type(module).forward))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return
    lines = source.splitlines()
    children = _children(module)
    experts_at = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in {f"self.{n}" for n in known if n}
    ]
    if not experts_at:
        return
    for node in sorted(ast.walk(tree), key=lambda node: getattr(node, "lineno", 0)):
        if not isinstance(node, ast.Call) or node.lineno <= max(experts_at):
            continue
        func = ast.unparse(node.func)
        name = func.removeprefix("self.")
        if func.startswith("self.") and name in children and name not in known:
            line = lines[node.lineno - 1].strip()
            analysis.needs_person.append(
                f"the mixture {type(module).__name__} runs {name} on the experts' sum (forward line {node.lineno}: "
                f"{line!r}): routed plus shared expert outputs are not its output"
            )
            return


def _shared_key(module: torch.nn.Module, shared: str) -> tuple[str | None, bool]:
    """Where the shared expert's contribution is read, and whether the mixture's forward must be instrumented for it.

    The shared expert's output where the forward adds it as is; the forward's later
    binding of the same name where a gate multiplies it first.
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(type(module).forward)))
    except (OSError, TypeError, SyntaxError):
        return f"{shared}.output", False
    bindings: dict[str, int] = {}
    target = None
    assigns = sorted(
        (node for node in ast.walk(tree) if isinstance(node, ast.Assign) and len(node.targets) == 1),
        key=lambda node: node.lineno,
    )
    for node in assigns:
        if not isinstance(node.targets[0], ast.Name):
            continue
        name = node.targets[0].id
        if target == name:
            gated = any(
                isinstance(sub, ast.BinOp)
                and isinstance(sub.op, ast.Mult)
                and any(isinstance(side, ast.Name) and side.id == name for side in (sub.left, sub.right))
                for sub in ast.walk(node.value)
            )
            # Only a product with the shared output gates it; any other rebinding combines it with the rest.
            return (f"source.{name}_{bindings[name] + 1}.output", True) if gated else (f"{shared}.output", False)
        bindings[name] = bindings.get(name, -1) + 1
        if target is None and f"self.{shared}" in ast.unparse(node.value):
            if not (isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == f"self.{shared}"):
                return f"{shared}.output", False  # summed where it is computed: added as is
            target = name
    return f"{shared}.output", False


#: Attribute names a fused attention keeps its key/value head count under (the config may say otherwise).
KV_HEAD_ATTRIBUTES = ("num_key_value_heads", "num_kv_heads", "kv_heads", "n_kv_heads", "n_head_kv")


def _attention_extras(analysis: Analysis, module: torch.nn.Module, attentions: list[torch.nn.Module]) -> None:
    """What else the attention's forward and the blocks' attentions say: several interface calls, per-block sizes."""
    try:
        source = textwrap.dedent(inspect.getsource(type(module).forward))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return
    lines = source.splitlines()
    calls = sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("attention_interface")
    )
    if len(calls) > 1:
        analysis.interface_calls = calls
        where = ", ".join(f"line {n}: {lines[n - 1].strip()!r}" for n in calls)
        analysis.needs_person.append(
            f"the attention calls the shared interface {len(calls)} times ({where}): the draft reads the interior "
            "at the first call, and no tensor holds one output per query head"
        )
    widths = {getattr(attention, "head_dim", None) for attention in attentions}
    analysis.head_dim_per_block = len(widths) > 1 and all(isinstance(width, int) for width in widths)
    if "k_proj" not in _children(module):  # without one, the base counts the key heads off the config
        analysis.kv_heads_attribute = next(
            (name for name in KV_HEAD_ATTRIBUTES if isinstance(getattr(module, name, None), int)), None
        )


def _beside_attention(
    analysis: Analysis, block: torch.nn.Module, index: int, attn: str | None, seen: set[type]
) -> None:
    """Name a child with weights that an attention block also calls, beside its attention, MLP and norms."""
    mlp = _mlp_child(block, attn)
    source = textwrap.dedent(_source(type(block))).splitlines()
    for name, child in _children(block).items():
        if name in (attn, mlp) or _is_norm(child) or type(child) in seen or not any(True for _ in child.parameters()):
            continue
        if type(child).__module__.startswith("torch.nn"):
            continue  # a bare linear or embedding of the block's own reads as part of its arithmetic
        line = next((n for n, text in enumerate(source, 1) if f"self.{name}(" in text), None)
        if line is None:
            continue
        seen.add(type(child))
        analysis.needs_person.append(
            f"block {index} also runs {name} ({type(child).__name__}) beside its attention and MLP (block forward "
            f"line {line}: {source[line - 1].strip()!r}): the draft places no value on it, nor what it adds to the stream"
        )


def _mixers(analysis: Analysis, blocks: torch.nn.Module, attn: str | None) -> None:
    """Name the token mixers of the blocks without an attention (a recurrent or convolutional mixer): not placed."""
    seen: set[type] = set()
    for index, block in enumerate(blocks):
        children = _children(block)
        if attn in children:
            _beside_attention(analysis, block, index, attn, seen)
            continue
        mlp = _mlp_child(block, attn)
        source = textwrap.dedent(_source(type(block))).splitlines()
        for name, child in children.items():
            if name == mlp or _is_norm(child) or type(child) in seen or not any(True for _ in child.parameters()):
                continue
            if type(child).__module__.startswith("torch.nn") or "attention" in type(child).__name__.lower():
                continue  # a softmax attention of its own block kind is no recurrent mixer
            line = next((n for n, text in enumerate(source, 1) if f"self.{name}(" in text), None)
            if line is None:
                continue
            seen.add(type(child))
            analysis.mixers.append(name)
            analysis.needs_person.append(
                f"block {index} mixes tokens with {name} ({type(child).__name__}), no attention (block forward "
                f"line {line}: {source[line - 1].strip()!r}): the draft does not place a recurrent or "
                "convolutional mixer; its envoy takes a mixer component of nnterp.components"
            )


def analyze(model_type: str) -> Analysis:
    """Read the standard values' places off a tiny instance of `model_type` and its forwards."""
    from nnterp.components.interface import interface_gap
    from nnterp.families import module_name

    config, overrides, model = shrink(model_type)
    container, layers, embed, norm, head = _find_tree(model, config)
    block = model.get_submodule(f"{container}.{layers}" if container else layers)[0]
    children = _children(block)
    attn = next((n for n, c in children.items() if "attention" in type(c).__name__.lower()), None)
    mlp = _mlp_child(block, attn)
    blocks = model.get_submodule(f"{container}.{layers}" if container else layers)
    mixtures = [b for b in blocks if (name := _mlp_child(b, attn)) and _is_mixture(b.get_submodule(name))]
    dense = [b for b in blocks if (name := _mlp_child(b, attn)) and not _is_mixture(b.get_submodule(name))]
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
    _mixers(analysis, blocks, attn)
    if mlp is None:
        analysis.inline_mlp = _inline_mlp(block, attn)
        if analysis.inline_mlp is not None:
            analysis.flat = _flattens(type(block))
    for missing, label in ((attn, "attention"), (mlp or analysis.inline_mlp, "MLP")):
        if missing is None:
            analysis.needs_person.append(f"no {label} child found on {type(block).__name__}")
    if mlp is not None and type(children[mlp]).__module__.startswith("torch.nn"):
        analysis.mlp_generic = True  # a bare container (`nn.Sequential`): its envoy is keyed on the standard name
    _read_block(analysis, block, attn, mlp or (analysis.inline_mlp[0] if analysis.inline_mlp else None))
    if mixtures:
        module = mixtures[-1].get_submodule(_mlp_child(mixtures[-1], attn))
        analysis.mixture = _mixture(analysis, module)
        analysis.mlp_class = type(module).__name__
        if dense:
            analysis.dense_mlp_class = type(dense[0].get_submodule(_mlp_child(dense[0], attn))).__name__
        elif analysis.mixture and analysis.mixture.shared_child:
            if not type(module.get_submodule(analysis.mixture.shared_child)).__module__.startswith("torch.nn"):
                analysis.dense_mlp_class = analysis.mixture.shared_class
    if attn:
        module = children[attn]
        analysis.interface_gap = interface_gap(type(module))
        if analysis.interface_gap:
            analysis.needs_person.append(f"the attention interior: {analysis.interface_gap}")
        analysis.o_proj = next((n for n in OUTPUT_NAMES if n in _children(module)), None) or _nested_output(module)
        # Queries split out of one fused projection are views that torch refuses to edit in place.
        analysis.split_qkv = _queries_split(type(module))
        analysis.premix_norm = _norm_after(module, "attention_interface(")
        analysis.premix_product = _premix_product(type(module), analysis.o_proj)
        _attention_extras(analysis, module, [b.get_submodule(attn) for b in blocks if attn in _children(b)])
    analysis.latent = isinstance(getattr(config, "kv_lora_rank", None), int)
    if analysis.latent:
        analysis.split_qkv = False  # the latent's pieces are concatenated into the queries and keys
    if mlp and analysis.mixture is None:
        parts = _children(children[mlp])
        analysis.down_proj = next((n for n in DOWN_NAMES if n in parts), None)
        analysis.act_fn = next((n for n in ACT_NAMES if n in parts), None)
        if analysis.mlp_generic:
            linears = [n for n, c in parts.items() if isinstance(c, torch.nn.Linear)]
            analysis.down_proj = linears[-1] if len(linears) > 1 else None
            analysis.act_fn = next(
                (n for n, c in parts.items() if type(c).__module__ == "torch.nn.modules.activation"), None
            )
        analysis.gated = "gate_proj" in parts and "up_proj" in parts
        analysis.plain_up = "up_proj" in parts and "gate_proj" not in parts
        analysis.fused_gate_up = "gate_up_proj" in parts
        analysis.neurons_norm = _norm_after(children[mlp], "")
        down = parts.get(analysis.down_proj) if analysis.down_proj else None
        width = getattr(down, "in_features", None)
        if width is not None and getattr(config, "intermediate_size", None) != width:
            keys = _width_keys(config, width)
            analysis.width_key = keys[0] if keys else None
            analysis.own_sizes["intermediate_size"] = "the MLP width read off block 0's down projection"
        if analysis.down_proj is None:
            analysis.needs_person.append(f"no down projection named {DOWN_NAMES} on {type(children[mlp]).__name__}")
    if analysis.inline_mlp is not None:
        down = block.get_submodule(analysis.inline_mlp[1])
        keys = _width_keys(config, down.in_features)
        analysis.width_key = (
            next((k for k in keys if k != "intermediate_size"), None) if "intermediate_size" not in keys else None
        )
        if analysis.width_key:
            analysis.own_sizes["intermediate_size"] = f"the feed-forward width, config.{analysis.width_key}"
    if embed:
        _embedding_edits(analysis, model.get_submodule(container) if container else model)
    _handed_on(analysis, model.get_submodule(container) if container else model)
    if norm and container:
        inner = model.get_submodule(container)
        analysis.container_class = type(inner).__name__
        source = textwrap.dedent(_source(type(inner))).splitlines()
        calls = [n for n, line in enumerate(source, 1) if f"self.{norm}(" in line]
        analysis.norm_calls = max(len(calls), 1)
        if len(calls) > 1:
            where = ", ".join(f"line {n}: {source[n - 1].strip()!r}" for n in calls)
            analysis.needs_person.append(
                f"the inner model calls its final norm {norm} {len(calls)} times ({where}): the draft reads "
                "final_norm_output at the last call, while norm.output in a trace is the first call's"
            )
    analysis.before_head, analysis.after_head = _head_ops(model, head)
    return analysis
