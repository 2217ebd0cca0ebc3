"""The image-text-to-text wrapper types of the installed transformers release: which nnterp serves, and why not the rest.

    python -m nnterp_harness.wrappers              # the table as text
    python -m nnterp_harness.wrappers --markdown   # the page site/docs/wrappers.md holds

A wrapper type (a key of transformers' `MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES`)
is *served* when a pinned checkpoint under ``tiny_checkpoints/`` has it as its
config's ``model_type`` and ``harness/families/test_<type>.py`` exists; its family
is the wrapper type's own module where nnterp ships one, else its text config's
type's. Every other wrapper type has a `Reason` in `UNSERVED`. Where the cause is
a transformers failure, the reason carries a probe that reproduces it from a tiny
offline config and the error it must raise, so a release that starts running the
type shows up as a failing test rather than as a stale record.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import transformers
from transformers.models.auto.modeling_auto import MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES, MODEL_MAPPING_NAMES

from . import locate
from .matrix import _left_out


def families_dir() -> Path:
    """The repository's ``harness/families`` directory, where the served types' suites live.

    It sits beside ``tiny_checkpoints/`` at the repository root, which `locate` finds from
    an installed harness too (this module's own path is in site-packages then).
    """
    return locate.checkpoints_root().parent / "harness" / "families"


@dataclass(frozen=True)
class Reason:
    """Why nnterp does not serve one wrapper type.

    - `why`: what the type lacks, or why nnterp does not serve it, in a sentence or two.
    - `probe`: where the cause is a transformers failure, a call that reproduces it on the
      installed release from a tiny config built offline; `None` for a design reason.
    - `raises`: the exception type the probe raises.
    - `message`: a stable prefix of the probe's error message (leading whitespace stripped).
    """

    why: str
    probe: Callable[[], Any] | None = None
    raises: type[BaseException] | None = None
    message: str = ""


def _torchvision_processor(name: str) -> Callable[[], Any]:
    """A probe that makes the image processor class `name` with its defaults."""

    def probe() -> Any:
        return getattr(transformers, name)()

    probe.__qualname__ = f"{name}()"
    return probe


def _timm_tower(model_type: str) -> Callable[[], Any]:
    """A probe that builds the vision tower of `model_type`'s default config (a `TimmWrapperModel`, no weights read)."""

    def probe() -> Any:
        config = transformers.AutoConfig.for_model(model_type).vision_config
        # The tower's class straight from timm_wrapper's package: `AutoModel` would look it up on `transformers`
        # itself, which imports every model's code first. A tower that stops being timm's fails the lookup.
        from transformers.models import timm_wrapper

        return getattr(timm_wrapper, MODEL_MAPPING_NAMES[config.model_type])(config)

    probe.__qualname__ = f"TimmWrapperModel(AutoConfig.for_model({model_type!r}).vision_config)"
    return probe


def _needs_torchvision(name: str) -> str:
    return f"{name} requires the Torchvision library but it was not found in your environment."


#: What transformers raises where a tower is `TimmWrapperModel` and timm is absent.
TIMM_MESSAGE = "TimmWrapperModel requires the timm library but it was not found in your environment."
#: Why torchvision (and timm, which imports it) is absent here.
NO_TORCHVISION = (
    "torchvision's PyPI build does not import beside torch 2.13.0+cpu "
    '("operator torchvision::nms does not exist"), so it is not installed here'
)


def _timm(model_type: str, lead: str) -> Reason:
    """A type whose vision tower is timm's, through `TimmWrapperModel`."""
    return Reason(
        f"{lead} The tower is a timm model behind `TimmWrapperModel`, and timm imports torchvision: {NO_TORCHVISION}.",
        _timm_tower(model_type),
        ImportError,
        TIMM_MESSAGE,
    )


_QUERY_TOKENS = (
    "The processor prepends the image's query tokens to every prompt and the scatter of the Q-Former's output "
    "sits in the top-level forward, while `generate` calls the language model's own `generate`, so the top-level "
    "forward (and the scatter) never runs during generation; nnterp has no standard form for that split."
)
_ENCODER_DECODER = "nnterp's families describe a decoder-only stack whose residual stream holds the prompt's tokens; "

#: Every wrapper type nnterp does not serve, with its reason, on any release of the matrix.
UNSERVED: dict[str, Reason] = {
    "blip": Reason(
        "BLIP's captioner is a BERT-style text decoder (`blip_text_model`) that reads the image only through "
        "cross-attention in every layer; there is no scatter into the token stream, and nnterp ships no "
        "`blip_text_model` family (no standard name for a cross-attention sublayer)."
    ),
    "blip-2": Reason(f"Over an OPT language model (family `opt` shipped). {_QUERY_TOKENS}"),
    "diffusion_gemma": Reason(
        "A block-diffusion generator: it denoises a block of masked tokens with a decoder whose attention is "
        "bidirectional (`is_causal = False`) and generates by iterated denoising, not next-token prediction; "
        "nnterp ships no `diffusion_gemma_text` family and has no standard values for a denoising step."
    ),
    "evolla": Reason(
        "Not an image model: Evolla reads protein sequences (a SaProt encoder and a resampler) into its own "
        "decoder (`evolla`, no family shipped) through cross-attention aligner layers; there is no image tower "
        "and no scatter."
    ),
    "fast_vlm": _timm("fast_vlm", "A Qwen2 text model (family `qwen2` shipped) behind a FastViT tower."),
    "florence2": Reason(
        f"An encoder-decoder: {_ENCODER_DECODER}Florence-2 concatenates the DaViT tower's projected features "
        "with the prompt as the input of a BART encoder, and its BART decoder sees them only through "
        "cross-attention; nnterp ships no `bart` family and no per-token decoder stream of the causal kind over "
        "the prompt."
    ),
    "gemma3n": _timm("gemma3n", "The text family `gemma3n_text` is shipped; the image tower is MobileNet-V5."),
    "idefics": Reason(
        "IDEFICS (1) feeds perceiver-resampled image embeddings to gated cross-attention layers interleaved "
        "with its Llama-style decoder layers (`idefics`, no family shipped); there is no scatter into the token "
        "stream and no standard name for the gated cross-attention block."
    ),
    "instructblip": Reason(f"Over an OPT language model (family `opt` shipped). {_QUERY_TOKENS}"),
    "instructblipvideo": Reason(
        f"Over an OPT language model (family `opt` shipped), one Q-Former pass per frame. {_QUERY_TOKENS}"
    ),
    "perception_lm": _timm(
        "perception_lm",
        "A Llama text model (family `llama` shipped); its image processor `PerceptionLMImageProcessor` is a "
        "torchvision class too.",
    ),
    "pi0": Reason(
        "A vision-language-action policy: PaliGemma's prefix runs beside a Gemma action expert and the forward "
        "takes the robot `state` and noisy actions and returns flow-matching action velocities, not next-token "
        "logits; its only image processor, `PI0ImageProcessor`, is a torchvision class as well.",
        _torchvision_processor("PI0ImageProcessor"),
        ImportError,
        _needs_torchvision("PI0ImageProcessor"),
    ),
    "pix2struct": Reason(
        f"An encoder-decoder: {_ENCODER_DECODER}Pix2Struct's encoder reads only flattened image patches (the "
        "prompt is rendered into the image) and its T5-style decoder sees them through cross-attention, so there "
        "is no per-token decoder stream of the causal kind over a prompt and no `pix2struct_text_model` family."
    ),
    "pp_formulanet": Reason(
        f"An encoder-decoder: {_ENCODER_DECODER}PP-FormulaNet's image encoder feeds an mBART-style decoder "
        "(`pp_formulanet_text`, no family) through cross-attention only; its only image processor, "
        "`PPFormulaNetImageProcessor`, is a torchvision class as well.",
        _torchvision_processor("PPFormulaNetImageProcessor"),
        ImportError,
        _needs_torchvision("PPFormulaNetImageProcessor"),
    ),
    "t5gemma2": Reason(
        f"An encoder-decoder: {_ENCODER_DECODER}T5Gemma 2 scatters the SigLIP features into its encoder's "
        "bidirectional stream and generates with a decoder that attends to the encoder (`t5gemma2_encoder`, "
        "`t5gemma2_decoder`, no family), so the prompt has no causal per-token stream."
    ),
    "udop": Reason(
        f"An encoder-decoder: {_ENCODER_DECODER}UDOP's T5 encoder sums image patches with layout-positioned "
        "tokens (its forward requires word boxes, `bbox`) and its decoder reads them through cross-attention; "
        "nnterp ships no `udop` family."
    ),
    "vision-encoder-decoder": Reason(
        f"A generic encoder-decoder: {_ENCODER_DECODER}any image encoder feeds any decoder through "
        "cross-attention, with no scatter and no prompt in the decoder's stream; its decoder is an arbitrary "
        "type, so there is no one family to serve it by."
    ),
}


@dataclass(frozen=True)
class Served:
    """A served wrapper type: its pinned checkpoint, its suite file, and the family module that serves it.

    `left_out` is why the installed release runs no suite for it (its entry's `cannot_run` or
    `unserved`, with the transformers error), or `None` where the suite runs.
    """

    checkpoint: str
    test_file: str
    family: str
    left_out: str | None = None


def wrapper_types() -> list[str]:
    """The installed release's image-text-to-text wrapper types, in transformers' order."""
    return list(MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES)


def _pinned() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Each model type of a pinned checkpoint: its checkpoint names and configs, by name order."""
    found: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for directory in sorted(locate.checkpoints_root().iterdir()):
        path = directory / "config.json"
        if path.is_file():
            config = json.loads(path.read_text(encoding="utf-8"))
            found.setdefault(config.get("model_type"), []).append((directory.name, config))
    return found


def _text_type(name: str, config: dict[str, Any]) -> str:
    text = config.get("text_config")
    if isinstance(text, dict) and text.get("model_type"):
        return text["model_type"]
    loaded = transformers.AutoConfig.from_pretrained(locate.checkpoint_path(name))
    return loaded.get_text_config().model_type


def served_by(model_type: str, pinned: dict[str, list[tuple[str, dict[str, Any]]]] | None = None) -> Served | None:
    """How `model_type` is served (checkpoint, suite, family), or `None` when it is not."""
    from nnterp.families import has_family, module_name

    pinned = _pinned() if pinned is None else pinned
    test_file = families_dir() / f"test_{module_name(model_type)}.py"
    if model_type not in pinned or not test_file.is_file():
        return None
    name, config = pinned[model_type][0]
    family = model_type if has_family(model_type) else _text_type(name, config)
    return Served(name, f"harness/families/{test_file.name}", module_name(family), _left_out(model_type))


def table() -> dict[str, Served | Reason | None]:
    """Every wrapper type of the installed release: how it is served, its recorded reason, or `None` for neither."""
    pinned = _pinned()
    rows: dict[str, Served | Reason | None] = {}
    for model_type in wrapper_types():
        served = served_by(model_type, pinned)
        rows[model_type] = served if served is not None else UNSERVED.get(model_type)
    return rows


def probe_error(reason: Reason) -> BaseException | None:
    """What `reason`'s probe raises on the installed release, or `None` when it returns."""
    assert reason.probe is not None
    try:
        reason.probe()
    except Exception as error:  # the probe's whole point is the error it raises
        return error
    return None


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table_lines(rows: dict[str, Served | Reason | None], label: str) -> list[str]:
    """A coverage page's two tables in Markdown, after its header: the served types, then the others with the reason.

    Shared by the wrappers page and the masked-LM page (`nnterp_harness.masked_lms`); `label` heads the first column.
    """
    lines = []
    for model_type, row in rows.items():
        if isinstance(row, Served):
            runs = "runs" if row.left_out is None else f"skipped: {_cell(row.left_out)}"
            lines.append(f"| `{model_type}` | `{row.checkpoint}` | `{row.test_file}` | `{row.family}` | {runs} |")
    lines += ["", "## Not served", "", f"| {label} | Why | Error on this release |", "| --- | --- | --- |"]
    for model_type, row in rows.items():
        if isinstance(row, Served):
            continue
        if row is None:
            lines.append(f"| `{model_type}` | Not recorded | |")
            continue
        error = f"`{row.raises.__name__}: {row.message}`" if row.probe is not None and row.raises else ""
        lines.append(f"| `{model_type}` | {_cell(row.why)} | {_cell(error)} |")
    return lines


def text_lines(rows: dict[str, Served | Reason | None]) -> list[str]:
    """A coverage table as plain text, one line per type, without the closing count."""
    out = []
    for model_type, row in rows.items():
        if isinstance(row, Served):
            skipped = "" if row.left_out is None else f"; this release skips it: {row.left_out}"
            out.append(f"{model_type}: served by {row.family} ({row.checkpoint}, {row.test_file}){skipped}")
        elif row is None:
            out.append(f"{model_type}: NOT RECORDED")
        else:
            out.append(f"{model_type}: not served: {row.why}")
    return out


def markdown(rows: dict[str, Served | Reason | None] | None = None) -> str:
    """The wrappers page in Markdown, as `site/docs/wrappers.md` holds it."""
    rows = table() if rows is None else rows
    served = {t: row for t, row in rows.items() if isinstance(row, Served)}
    unserved = {t: row for t, row in rows.items() if not isinstance(row, Served)}
    lines = [
        "# Vision-language wrappers",
        "",
        "<!-- Generated by `python -m nnterp_harness.wrappers --markdown`; do not edit by hand. -->",
        "",
        f"transformers {transformers.__version__} lists {len(rows)} image-text-to-text wrapper types "
        "(`MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES`). nnterp serves {served} of them: a pinned tiny checkpoint "
        "of the type and its suite under `harness/families/`, read through the wrapper's own family or its text "
        "model's. The other {unserved} are listed with what they lack; where the cause is a transformers failure, "
        "the error is the one a probe from a tiny offline config raises on this release, checked by "
        "`harness/tests/test_wrappers.py`.".format(served=len(served), unserved=len(unserved)),
        "",
        "## Served",
        "",
        "| Wrapper type | Checkpoint | Suite | Family | On this release |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += table_lines(rows, "Wrapper type")
    return "\n".join(lines) + "\n"


def text(rows: dict[str, Served | Reason | None] | None = None) -> str:
    """The table as plain text, one line per wrapper type."""
    rows = table() if rows is None else rows
    served = sum(isinstance(row, Served) for row in rows.values())
    tail = f"transformers {transformers.__version__}: {len(rows)} wrapper types, {served} served"
    return "\n".join([*text_lines(rows), tail])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nnterp_harness.wrappers", description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the page site/docs/wrappers.md holds")
    args = parser.parse_args(argv)
    print(markdown() if args.markdown else text(), end="\n" if not args.markdown else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
