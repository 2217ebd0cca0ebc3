"""The three files of a draft, written from an `Analysis`: the family module, the checkpoint entry, the suite file."""

from __future__ import annotations

import pprint
from typing import Any

from .analyze import Analysis

PARALLEL_VALUES = {"layer_mid": "PARALLEL"}


def _standard_names(a: Analysis) -> dict[str, str | None]:
    """The native name each block-level standard module takes in the draft (`None` where it has none)."""
    sandwich = bool((a.attention and a.attention.post_norm) or (a.mlp and a.mlp.post_norm))
    attn_norm = a.attention.pre_norm if a.attention else None
    mlp_norm = a.mlp.pre_norm if a.mlp else None
    return {
        "self_attn": a.attention.native if a.attention else None,
        "mlp": a.mlp.native if a.mlp else None,
        "input_layernorm": attn_norm if not sandwich else None,
        "post_attention_layernorm": mlp_norm if not (sandwich or a.parallel) else None,
    }


def rename(a: Analysis) -> dict[str, str]:
    """The draft's `RENAME`: native paths to standard names, only where they differ."""
    table: dict[str, str] = {}
    prefix = f"{a.container}." if a.container else ""
    for native, standard in ((a.embed, "embed_tokens"), (a.layers, "layers"), (a.norm, "norm")):
        if native is not None and (prefix or native != standard):
            table[f"{prefix}{native}"] = standard
    if a.head and a.head != "lm_head":
        table[a.head] = "lm_head"
    for standard, native in _standard_names(a).items():
        if native and native != standard:
            table[native] = standard
    attn = a.attention.native if a.attention else None
    mlp = a.mlp.native if a.mlp else None
    for host, native, standard in ((attn, a.o_proj, "o_proj"), (mlp, a.down_proj, "down_proj"), (mlp, a.act_fn, "act_fn")):
        if host and native and native != standard:
            table[f"{host}.{native}"] = f"{host}.{standard}"
    return table


def _value(name: str, key: str, description: str, layout: str = "Residual") -> list[str]:
    return [
        f'    @EProperty("{key}", description="{description}")',
        f"    def {name}(self, value) -> {layout}:",
        "        return value",
        "",
    ]


def _layer_body(a: Analysis) -> tuple[list[str], set[str]]:
    names = _standard_names(a)
    body: list[str] = []
    reasons: set[str] = set()
    if a.returns_tuple:
        body += ["    returns_tuple = True", ""]
    if a.attention and a.attention.pre_norm is None:
        body += ["    attention_norm_output = unavailable(POST_NORM_ATTENTION)", ""]
        reasons.add("POST_NORM_ATTENTION")
    elif a.attention and names["input_layernorm"] is None:
        body += _value("attention_norm_output", f"{a.attention.pre_norm}.output", "The normed stream the attention reads")
    if a.parallel:
        body += ["    layer_mid = unavailable(PARALLEL)", ""]
        reasons.add("PARALLEL")
        norm = a.mlp.pre_norm if a.mlp else None
        if norm and names["post_attention_layernorm"] is None:
            body += _value("mlp_norm_output", f"{norm}.output", "The normed stream entering the MLP")
    elif a.mlp and a.mlp.pre_norm is None:
        body += _value("layer_mid", "mlp.input", "The residual stream after the attention add")
        body += ["    mlp_norm_output = unavailable(POST_NORM_MLP)", ""]
        reasons.add("POST_NORM_MLP")
    elif a.mlp and names["post_attention_layernorm"] is None:
        body += _value("layer_mid", f"{a.mlp.pre_norm}.input", "The residual stream after the attention add")
        body += _value("mlp_norm_output", f"{a.mlp.pre_norm}.output", "The normed stream entering the MLP")
    return body, reasons


def _sublayer_body(sub: Any, value: str, what: str) -> list[str]:
    if sub is None or sub.post_norm is None:
        return []
    return _value(value, f"../{sub.post_norm}.output", f"What the {what} adds to the residual stream: the {sub.post_norm} output")


def _docstring_block(a: Analysis) -> str:
    attn_in = "input_layernorm(x)" if a.attention and a.attention.pre_norm else "x"
    attn = f"self_attn({attn_in})"
    if a.attention and a.attention.post_norm:
        attn = f"{a.attention.post_norm}({attn})"
    if a.parallel:
        mlp_in = "input_layernorm(x)" if a.mlp and a.mlp.pre_norm == (a.attention.pre_norm if a.attention else None) else "mlp_norm(x)"
        return f"out = x + {attn} + mlp({mlp_in})"
    mlp_in = "post_attention_layernorm(h)" if a.mlp and a.mlp.pre_norm else "h"
    mlp = f"mlp({mlp_in})"
    if a.mlp and a.mlp.post_norm:
        mlp = f"{a.mlp.post_norm}({mlp})"
    return f"h = x + {attn}; out = h + {mlp}"


def family_module(a: Analysis) -> str:
    """The draft family module's text."""
    imports = [c for c in (a.block_class, a.attention_class, a.mlp_class) if c]
    layer_body, reasons = _layer_body(a)
    attention_body = _sublayer_body(a.attention, "attention_output", "attention")
    mlp_body = _sublayer_body(a.mlp, "mlp_output", "MLP")
    components = {"Attention", "Layer", "Mlp"}
    if any("@EProperty" in line for line in layer_body + attention_body + mlp_body):
        components |= {"EProperty", "Residual"}
    if any("unavailable(" in line for line in layer_body):
        components.add("unavailable")
    components |= reasons
    lines = [
        f'"""{a.model_type} (`{a.block_class}` blocks): a draft written by `python -m nnterp scaffold {a.model_type}`.',
        "",
        f"Block: `{_docstring_block(a)}`.",
    ]
    if a.needs_person:
        lines += ["", "What the scaffold could not place, for a person to read in the forward:", ""]
        lines += [f"- {item}" for item in a.needs_person]
    lines += [
        '"""',
        "",
        f"from {a.modeling_module} import {', '.join(imports)}",
        "",
        f"from nnterp.components import {', '.join(sorted(components, key=str.lower))}",
        "",
        "RENAME = " + pprint.pformat(rename(a), sort_dicts=False, width=110),
        "",
        "",
        "class Layer(Layer):",
        f'    """{a.block_class}, as the scaffold placed its norms and adds."""',
        "",
        *layer_body,
    ]
    if a.attention_class:
        lines += ["", "class Attention(Attention):", f'    """{a.attention_class}."""', "", *attention_body]
    if a.mlp_class:
        lines += ["", "class Mlp(Mlp):", f'    """{a.mlp_class}."""', "", *mlp_body]
    if "intermediate_size" in a.own_sizes:
        lines += [
            "",
            "def intermediate_size(model) -> int:",
            '    """The MLP width, read off block 0\'s down projection."""',
            "    return model.layers[0].mlp.intermediate_size",
            "",
        ]
    if a.after_head:
        lines += ["", *_project_on_vocab(a.after_head)]
    envoys = [f"{a.block_class}: Layer"]
    if a.attention_class:
        envoys.append(f"{a.attention_class}: Attention")
    if a.mlp_class:
        envoys.append(f"{a.mlp_class}: Mlp")
    lines += ["", "ENVOYS = {" + ", ".join(envoys) + "}", ""]
    text = "\n".join(lines)
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text.replace("\n\n\n\nclass", "\n\n\nclass")


def _project_on_vocab(kind: str) -> list[str]:
    body = {
        "softcap": [
            "    cap = model.config.final_logit_softcapping",
            "    logits = model.lm_head(model.norm(hidden))",
            "    return logits if cap is None else (logits / cap).tanh() * cap",
        ],
        "logit_scale": ["    return model.lm_head(model.norm(hidden)) * model.config.logit_scale"],
        "logits_scaling": ["    return model.lm_head(model.norm(hidden)) / model.config.logits_scaling"],
    }[kind]
    return [
        "def project_on_vocab(model, hidden):",
        f'    """The final norm, the head, then what the model does after it ({kind})."""',
        *body,
        "",
    ]


def entry_module(a: Analysis) -> str:
    """The tiny-checkpoint entry's text, as `nnterp_harness/entries/<module>.py` takes it."""
    overrides = pprint.pformat(a.overrides, sort_dicts=True, width=100)
    return (
        f'"""The tiny {a.model_type} checkpoint of the scaffold\'s draft."""\n\n'
        "from nnterp_harness.entry import Entry\n\n"
        f'ENTRIES = (Entry("{a.module_name}", "{a.model_type}", {overrides}),)\n'
    )


def test_module(a: Analysis) -> str:
    """The draft's `FamilySuite` file: the draft loaded from beside it, the checkpoint from `tiny_checkpoints/`."""
    names = _standard_names(a)
    container = repr(a.container or None)
    attn = repr(a.attention.native if a.attention else None)
    mlp = repr(a.mlp.native if a.mlp else None)
    ln1 = repr(names["input_layernorm"])
    ln2 = repr(names["post_attention_layernorm"])
    attention_norm = None
    if a.attention and a.attention.pre_norm:
        attention_norm = "input_layernorm" if names["input_layernorm"] else a.attention.pre_norm
    mlp_norm = None
    if a.mlp and a.mlp.pre_norm:
        if names["post_attention_layernorm"]:
            mlp_norm = "post_attention_layernorm"
        elif a.parallel and a.attention and a.mlp.pre_norm == a.attention.pre_norm:
            mlp_norm = attention_norm
        else:
            mlp_norm = a.mlp.pre_norm
    expected = {}
    if a.attention and a.attention.pre_norm is None:
        expected["attention_norm_output"] = "post-norm"
    if a.parallel:
        expected["layer_mid"] = "parallel"
    elif a.mlp and a.mlp.pre_norm is None:
        expected["mlp_norm_output"] = "post-norm"
    quirks = [
        f"    ATTENTION_NORM = {attention_norm!r}",
        f"    MLP_NORM = {mlp_norm!r}",
    ]
    if a.parallel and a.mlp and a.mlp.pre_norm is not None:
        quirks.append("    MLP_NORM_BEFORE_ATTENTION = True")
    if a.split_qkv:
        quirks.append("    REFUSES_IN_PLACE_QKV = True")
    if expected:
        quirks.append(f"    EXPECTED_UNAVAILABLE = {expected!r}")
    if a.fused_gate_up:
        quirks.append("    NEURONS_FROM_ACTIVATION = False")
    if a.plain_up:
        quirks.append("    PLAIN_UP_PROJ = True")
    if a.width_key:
        quirks.append(f"    MLP_WIDTH_KEY = {a.width_key!r}")
    head = repr(a.head)
    return f'''"""{a.model_type}: the scaffold's draft held to the whole `FamilySuite`."""

import importlib.util
from pathlib import Path

from nnterp_harness.suite import FamilySuite, rows

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("nnterp_scaffold_{a.module_name}", HERE / "{a.module_name}.py")
draft = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(draft)


class TestDraft{"".join(part.title() for part in a.module_name.split("_"))}(FamilySuite):
    CHECKPOINT = "{a.module_name}"
    FAMILY = draft
    LOAD_KWARGS = {{"family": draft}}
    NATIVE = rows({container}, {a.layers!r}, {a.embed!r}, {a.norm!r}, attn={attn}, ln1={ln1}, ln2={ln2}, mlp={mlp}, head={head})
{chr(10).join(quirks)}

    @classmethod
    def checkpoint_dir(cls, tmp_path_factory):
        return HERE / "tiny_checkpoints" / cls.CHECKPOINT
'''
