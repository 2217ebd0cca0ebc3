"""The three files of a draft, written from an `Analysis`: the family module, the checkpoint entry, the suite file."""

from __future__ import annotations

import pprint
from typing import Any

from .analyze import Analysis

PARALLEL_VALUES = {"layer_mid": "PARALLEL"}
#: The attention's interior values, which an attention with its own arithmetic holds at operations of its own.
INTERIOR = (
    "attention_queries",
    "attention_keys",
    "attention_values",
    "attention_scores",
    "attention_probabilities",
    "attention_head_outputs",
)
#: What every reason the draft writes for a value it could not place says.
NOT_PLACED = "the scaffold's draft does not place"


def _standard_names(a: Analysis) -> dict[str, str | None]:
    """The native name each block-level standard module takes in the draft (`None` where it has none)."""
    sandwich = bool((a.attention and a.attention.post_norm) or (a.mlp and a.mlp.post_norm))
    attn_norm = a.attention.pre_norm if a.attention else None
    mlp_norm = a.mlp.pre_norm if a.mlp else None
    # An alias binds on every module of that name: one the final norm also bears stays native.
    clash = {a.norm, a.embed, a.head}
    return {
        "self_attn": a.attention.native if a.attention else None,
        "mlp": a.mlp.native if a.mlp and not a.inline_mlp else None,
        "input_layernorm": attn_norm if not sandwich and attn_norm not in clash else None,
        "post_attention_layernorm": mlp_norm if not (sandwich or a.parallel) and mlp_norm not in clash else None,
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
    for host, native, standard in (
        (attn, a.o_proj, "o_proj"),
        (mlp, a.down_proj, "down_proj"),
        (mlp, a.act_fn, "act_fn"),
    ):
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
        body += _value(
            "attention_norm_output", f"{a.attention.pre_norm}.output", "The normed stream the attention reads"
        )
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
    elif a.mlp and (names["post_attention_layernorm"] is None or a.flat):
        layout = "FlatResidual" if a.flat else "Residual"
        flat = ", flat over tokens" if a.flat else ""
        body += _value(
            "layer_mid", f"{a.mlp.pre_norm}.input", f"The residual stream after the attention add{flat}", layout
        )
        body += _value(
            "mlp_norm_output", f"{a.mlp.pre_norm}.output", f"The normed stream entering the MLP{flat}", layout
        )
    if a.inline_mlp:
        body += ["    mlp_input = unavailable(NO_MLP)", ""]
        if not a.flat:
            body += _value(
                "mlp_output",
                f"{a.inline_mlp[1]}.output",
                f"What the feed-forward path adds to the residual stream: {a.inline_mlp[1]}'s output",
            )
    return body, reasons


def _sublayer_body(sub: Any, value: str, what: str) -> list[str]:
    if sub is None or sub.post_norm is None:
        return []
    if sub.multiplier:
        return [
            f"    # The block norms the {what}'s output with {sub.post_norm}, then scales it by {sub.multiplier}.",
            f'    {value} = scaled_output("What the {what} adds to the residual stream, normed and scaled", key="../{sub.post_norm}.output")',
            "",
        ]
    return _value(
        value, f"../{sub.post_norm}.output", f"What the {what} adds to the residual stream: the {sub.post_norm} output"
    )


def _inside(sub: Any, value: str, what: str) -> list[str]:
    """A contribution the sublayer adds to the residual inside its own forward: read there, else unavailable."""
    if sub is None or not sub.adds_residual:
        return []
    if sub.inside is None:
        return [f"    {value} = unavailable(ADDS_RESIDUAL)", ""]
    return [
        f"    # The {what} adds the residual inside its own forward: the contribution is read there.",
        f'    @EProperty("{sub.inside}", description="What the {what} adds to the residual stream, inside its forward", unavailable=always)',
        f"    def {value}(self, value) -> Residual:",
        "        return value",
        "",
    ]


def _copied(sub: Any, value: str, what: str) -> list[str]:
    """A contribution the block adds another tensor into in place: a copy of the sublayer's output, handed back on a write."""
    if sub is None or not sub.added_into or sub.post_norm or sub.adds_residual:
        return []
    return [
        f"    # The block adds into the {what}'s output in place ({sub.added_into!r}): the contribution is a copy.",
        "    @EProperty(",
        '        "output",',
        f'        description="What the {what} adds to the residual stream (a copy: the block adds into it in place)",',
        "    )",
        f"    def {value}(self, value) -> Residual:",
        "        return first_tensor(value).clone()",
        "",
        f"    @{value}.postprocess",
        f"    def {value}(self, value):",
        "        return rewrap(self, value)",
        "",
        f"    @{value}.transform",
        f"    def {value}(self, value, raw):",
        "        return value.clone()",
        "",
    ]


def _base(sub: Any, plain: str, scaled: str) -> str:
    """The component base of a sublayer: the scaled one where the block multiplies its output before the add."""
    return scaled if sub is not None and sub.multiplier and sub.post_norm is None else plain


def _mixture_body(a: Analysis) -> list[str]:
    m = a.mixture
    lines = [f'    SCORING = "{m.scoring}"']
    if m.router != "router":
        lines.append(f'    ROUTER = "{m.router}"')
    if m.logits != "F_linear_0":
        lines.append(f"    LOGITS = {m.logits!r}")
    if m.experts != "experts":
        lines.append(f'    EXPERTS = "{m.experts}"')
    if m.indices != 1:
        lines.append(f"    INDICES = {m.indices}")
    if m.weights != 2:
        lines.append(f"    WEIGHTS = {m.weights}")
    if m.scale:
        lines.append(f'    SCALE = "{m.scale}"')
        lines.append(f'    SCALED = "{m.scaled}"')
    if m.shared:
        lines.append(f'    SHARED = "{m.shared}"')
    if m.sourced:
        lines += [
            "    # The gated shared expert is a binding of this forward, read after the experts ran inside it.",
            "    sourced = True",
        ]
    return [*lines, ""]


def _docstring_block(a: Analysis) -> str:
    names = _standard_names(a)
    attn_norm = a.attention.pre_norm if a.attention else None
    attn_in = f"{'input_layernorm' if names['input_layernorm'] else attn_norm}(x)" if attn_norm else "x"
    attn = f"self_attn({attn_in})"
    if a.attention and a.attention.post_norm:
        attn = f"{a.attention.post_norm}({attn})"
    if a.parallel:
        mlp_norm = a.mlp.pre_norm if a.mlp else None
        mlp_in = attn_in if mlp_norm == attn_norm else f"{mlp_norm}(x)" if mlp_norm else "x"
        return f"out = x + {attn} + mlp({mlp_in})"
    mlp_norm = a.mlp.pre_norm if a.mlp else None
    mlp_in = f"{'post_attention_layernorm' if names['post_attention_layernorm'] else mlp_norm}(h)" if mlp_norm else "h"
    mlp = f"mlp({mlp_in})"
    if a.mlp and a.mlp.post_norm:
        mlp = f"{a.mlp.post_norm}({mlp})"
    return f"h = x + {attn}; out = h + {mlp}"


def family_module(a: Analysis) -> str:
    """The draft family module's text."""
    mlp_class = a.mlp_class if a.mlp_class and not a.mlp_generic else None
    body_class = a.container_class if a.norm_calls > 1 else None
    imports = list(
        dict.fromkeys(c for c in (body_class, a.block_class, a.attention_class, mlp_class, a.dense_mlp_class) if c)
    )
    layer_body, reasons = _layer_body(a)
    attention_body = (
        _sublayer_body(a.attention, "attention_output", "attention")
        + _inside(a.attention, "attention_output", "attention")
        + _copied(a.attention, "attention_output", "attention")
    )
    mlp_body = (
        _sublayer_body(a.mlp, "mlp_output", "MLP")
        + _inside(a.mlp, "mlp_output", "MLP")
        + _copied(a.mlp, "mlp_output", "MLP")
    )
    if a.interface_gap:
        attention_body += [
            "    def off_interface(self) -> str | None:",
            "        return OWN_ARITHMETIC",
            "",
        ]
    if a.interface_calls and not a.interface_gap:
        attention_body += ["    attention_head_outputs = unavailable(SEVERAL_CALLS)", ""]
    if a.kv_heads_attribute:
        attention_body += [
            "    @property",
            "    def num_kv_heads(self) -> int:",
            f'        """The key/value heads, the module\'s `{a.kv_heads_attribute}` (the config may say otherwise)."""',
            f"        return self._module.{a.kv_heads_attribute}",
            "",
        ]
    attention_base = "LatentAttention" if a.latent else _base(a.attention, "Attention", "ScaledAttention")
    if a.latent and a.attention and a.attention.multiplier and not a.attention.post_norm:
        attention_body = [
            '    attention_output = scaled_output("What the attention adds to the residual stream, after the block\'s multiplier")',
            "",
            *attention_body,
        ]
    mixture_base = _base(a.mlp, "ScaledRoutedMoe" if a.mixture and a.mixture.scale else "Moe", "ScaledMoe")
    mlp_base = _base(a.mlp, "Mlp", "ScaledMlp")
    components = {"Layer", attention_base}
    if a.mixture:
        components.add(mixture_base)
        if a.dense_mlp_class:
            components.add("Mlp")
    elif a.mlp_class:
        components.add(mlp_base)
    body_lines = layer_body + attention_body + mlp_body
    if a.norm_calls > 1:
        components |= {"EProperty", "Standard"}
    if any("@EProperty" in line for line in body_lines):
        components.add("EProperty")
    if any("-> Residual" in line for line in body_lines):
        components.add("Residual")
    if any("-> FlatResidual" in line for line in body_lines):
        components.add("FlatResidual")
    if any("scaled_output(" in line for line in body_lines):
        components.add("scaled_output")
    if any("unavailable(" in line for line in body_lines):
        components.add("unavailable")
    if any("unavailable=always" in line for line in body_lines):
        components.add("always")
    if any("first_tensor(" in line for line in body_lines):
        components |= {"first_tensor", "rewrap"}
    if a.latent:
        components |= {"latent_head_dim", "latent_qk_head_dim"}
    components |= reasons
    lines = [
        f'"""{a.model_type} (`{a.block_class}` blocks): a draft written by `python -m nnterp_harness.scaffold {a.model_type}`.',
        "",
        f"Block: `{_docstring_block(a)}`.",
    ]
    quirks = _quirks(a)
    if quirks:
        lines += ["", *quirks]
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
    ]
    constants = []
    if a.interface_gap:
        constants.append(
            f"OWN_ARITHMETIC = {a.interface_gap + '; ' + NOT_PLACED + ' the interior at its own operations'!r}"
        )
    if a.interface_calls and not a.interface_gap:
        constants.append(
            f"SEVERAL_CALLS = {'the attention combines the outputs of several interface calls; ' + NOT_PLACED + ' one output per query head'!r}"
        )
    if any(sub is not None and sub.adds_residual and sub.inside is None for sub in (a.attention, a.mlp)):
        constants.append(
            f"ADDS_RESIDUAL = {'the sublayer adds the residual inside its own forward; ' + NOT_PLACED + ' the contribution there'!r}"
        )
    if constants:
        lines += ["", *constants, ""]
    if a.inline_mlp:
        lines += [
            "",
            f'NO_MLP = "the block runs {a.inline_mlp[0]}, the activation and {a.inline_mlp[1]} inline: there is no mlp module to call"',
            "",
        ]
    if a.norm_calls > 1:
        lines += [
            "",
            f"#: The last of the {a.norm_calls} calls of `{a.norm}` in the inner model's forward: what the head reads.",
            f'final_norm_output = EProperty("{a.container}.source.self_{a.norm}_{a.norm_calls - 1}.output")',
            "",
            "",
            "class Body(Standard):",
            f'    """{a.container_class}, instrumented at load: `final_norm_output` is read inside its forward."""',
            "",
            "    sourced = True",
            "",
        ]
    lines += [
        "",
        f"class Layer({'Layer'}):",
        f'    """{a.block_class}, as the scaffold placed its norms and adds."""',
        "",
        *layer_body,
    ]
    if a.attention_class:
        lines += ["", f"class Attention({attention_base}):", f'    """{a.attention_class}."""', "", *attention_body]
    if a.mixture:
        if a.dense_mlp_class:
            lines += ["", "class Mlp(Mlp):", f'    """{a.dense_mlp_class}, the dense MLP."""', ""]
        lines += [
            "",
            f"class Moe({mixture_base}):",
            f'    """{a.mixture.class_name}: the router `{a.mixture.router}`, the experts `{a.mixture.experts}`."""',
            "",
            *_mixture_body(a),
            *mlp_body,
        ]
    elif a.mlp_class:
        lines += ["", f"class Mlp({mlp_base}):", f'    """{a.mlp_class}."""', "", *mlp_body]
    if a.width_key:
        lines += [
            "",
            "def intermediate_size(model) -> int:",
            f'    """The MLP width, `config.{a.width_key}`."""',
            f"    return model.config.{a.width_key}",
            "",
        ]
    elif "intermediate_size" in a.own_sizes:
        lines += [
            "",
            "def intermediate_size(model) -> int:",
            '    """The MLP width, read off block 0\'s down projection."""',
            "    return model.layers[0].mlp.intermediate_size",
            "",
        ]
    if a.head_dim_per_block:
        lines += [
            "",
            "def head_dim(model) -> int:",
            '    """The first block\'s head width; it differs per block, each block\'s own is `self_attn.head_dim`."""',
            "    return model.layers[0].self_attn.head_dim",
            "",
        ]
    if a.latent:
        lines += [
            "",
            "#: The values' and the queries' head widths differ under latent attention.",
            "head_dim = latent_head_dim",
            "qk_head_dim = latent_qk_head_dim",
            "",
        ]
    if a.after_head or a.before_head:
        lines += ["", *_project_on_vocab(a.before_head, a.after_head)]
    envoys = [f"{a.container_class}: Body"] if a.norm_calls > 1 else []
    envoys.append(f"{a.block_class}: Layer")
    if a.attention_class:
        envoys.append(f"{a.attention_class}: Attention")
    if a.mixture:
        if a.dense_mlp_class:
            envoys.append(f"{a.dense_mlp_class}: Mlp")
        envoys.append(f"{a.mixture.class_name}: Moe")
    elif a.mlp_generic:
        lines += ["", "# The MLP is a bare torch container, so its envoy is keyed on its standard name."]
        envoys.append('"mlp": Mlp')
    elif a.mlp_class:
        envoys.append(f"{a.mlp_class}: Mlp")
    lines += ["", "ENVOYS = {" + ", ".join(envoys) + "}", ""]
    text = "\n".join(lines)
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text.replace("\n\n\n\nclass", "\n\n\nclass")


def _quirks(a: Analysis) -> list[str]:
    """What the draft's values follow from, in words, for the module docstring."""
    found = []
    for sub, what in ((a.attention, "attention"), (a.mlp, "MLP")):
        if sub is not None and sub.multiplier:
            found.append(f"The block scales the {what}'s output by `{sub.multiplier}` before adding it.")
    if a.premix_norm:
        found.append(f"`{a.premix_norm}` norms the head outputs before the output projection.")
    elif a.premix_product:
        found.append(f"The attention multiplies the head outputs before the output projection: `{a.premix_product}`.")
    if a.inline_mlp:
        flat = ", on the stream flat over tokens" if a.flat else ""
        found.append(
            f"The block runs its feed-forward path inline (`{a.inline_mlp[0]}` ... `{a.inline_mlp[1]}`){flat}."
        )
    if a.mixture:
        shared = f", the shared expert `{a.mixture.shared_child}`" if a.mixture.shared_child else ", no shared expert"
        found.append(f"The mixture scores its router logits by `{a.mixture.scoring}`{shared}.")
    if a.latent:
        found.append("The attention is a latent attention: keys and values decompressed from one shared latent.")
    return found


def _project_on_vocab(before: str | None, after: str | None) -> list[str]:
    """The draft's logit lens: the final norm, the scale the model applies to the head's input, the head, then `after`."""
    normed = f"model.norm(hidden) {before}" if before else "model.norm(hidden)"
    steps = ["the final norm"]
    if before:
        steps.append(f"the scale the model applies to the head's input ({before})")
    steps.append("the head")
    if after == "softcap":
        steps.append("its final logit softcapping")
        body = [
            "    cap = model.config.final_logit_softcapping",
            f"    logits = model.lm_head({normed})",
            "    return logits if cap is None else (logits / cap).tanh() * cap",
        ]
    else:
        if after:
            steps.append(f"the scale it applies to the head's output ({after})")
        body = [f"    return model.lm_head({normed}){' ' + after if after else ''}"]
    what = ", ".join(steps[:-1]) + f", then {steps[-1]}"
    return [
        "def project_on_vocab(model, hidden):",
        f'    """The logit lens: {what}."""',
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
    mlp = repr(names["mlp"])
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
    if a.inline_mlp:
        expected["mlp_input"] = "inline"
    if a.interface_gap:
        expected.update({f"self_attn.{value}": NOT_PLACED for value in INTERIOR})
    elif a.interface_calls:
        expected["self_attn.attention_head_outputs"] = NOT_PLACED
    if a.attention and a.attention.adds_residual and a.attention.inside is None:
        expected["self_attn.attention_output"] = NOT_PLACED
    if a.mlp and a.mlp.adds_residual and a.mlp.inside is None:
        expected["mlp.mlp_output"] = NOT_PLACED
    quirks = [
        f"    ATTENTION_NORM = {attention_norm!r}",
        f"    MLP_NORM = {mlp_norm!r}",
    ]
    if a.mlp_norm_first:
        quirks.append("    MLP_NORM_BEFORE_ATTENTION = True")
    if a.split_qkv:
        quirks.append("    REFUSES_IN_PLACE_QKV = True")
    if a.mixture:
        expected.update({"mlp.mlp_activation": "routed experts", "mlp.mlp_neurons": "routed experts"})
        if not a.mixture.shared:
            expected["mlp.shared_expert_output"] = "this mixture has no shared expert"
            quirks.append('    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}')
        if a.dense_mlp_class and a.mixture.shared_class == a.dense_mlp_class:
            quirks.append("    ROUTER_EXTRA_CLASSES = (draft.Mlp,)")
    if expected:
        quirks.append(f"    EXPECTED_UNAVAILABLE = {expected!r}")
    if a.latent:
        quirks.append('    REFUSES_IN_PLACE = ("attention_values",)')
    if a.premix_product and not a.premix_norm:
        quirks.append(
            f"    PREMIX_IS_HEAD_OUTPUTS = False  # the attention multiplies the head outputs first: {a.premix_product}"
        )
    if a.premix_norm:
        quirks.append(
            f"    PREMIX_IS_HEAD_OUTPUTS = False  # {a.premix_norm} norms the heads before the output projection"
        )
    if a.fused_gate_up or a.neurons_norm:
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
