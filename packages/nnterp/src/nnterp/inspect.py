"""The main job: load a checkpoint (the demo one by default) and show what nnterp makes of it.

It prints the family and the sizes, block 0 drawn with the standard names beside
the native ones, the `support()` table with its reasons, and one trace on the
prompt: the contribution identity checked on every block (its post-LN form on a post-LN
block) and the logit lens's top token per block, at the last position on a decoder and at
the mask token on an encoder (the mask is appended to a prompt that has none).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

DEFAULT_PROMPT = "The Eiffel Tower is in the city of"
DEMO = "demo"


def demo_checkpoint() -> Path:
    """The embedded demo checkpoint: `NNTERP_DEMO_CHECKPOINT`, else `tiny_checkpoints/demo` above the working directory."""
    explicit = os.environ.get("NNTERP_DEMO_CHECKPOINT")
    if explicit:
        return Path(explicit)
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        for folder in (start, *start.parents):
            candidate = folder / "tiny_checkpoints" / DEMO
            if (candidate / "config.json").is_file():
                return candidate
    raise FileNotFoundError(
        "no demo checkpoint found: run from the nnterp repository (it ships tiny_checkpoints/demo), "
        "set NNTERP_DEMO_CHECKPOINT to its path, or pass a checkpoint: python -m nnterp inspect PATH"
    )


def tiny_checkpoint(name: str = DEMO) -> str:
    """The path of the repository's tiny checkpoint `name` (`"demo"`, `"gpt2"`, `"gemma2"`, ...), as a string.

    It is the folder beside the demo checkpoint that `demo_checkpoint()` finds, so it
    resolves from any working directory with an editable install of the checkout, or
    with `NNTERP_DEMO_CHECKPOINT` set. The documentation's examples load through it.
    """
    demo = demo_checkpoint()
    path = demo if name == DEMO else demo.parent / name
    if not (path / "config.json").is_file():
        raise FileNotFoundError(f"no tiny checkpoint {name!r} beside the demo checkpoint in {demo.parent}")
    return str(path)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m nnterp", description="What nnterp makes of a checkpoint.")
    commands = parser.add_subparsers(dest="command", required=True)
    inspect = commands.add_parser("inspect", help="family, sizes, names, support() and one trace of a checkpoint")
    inspect.add_argument(
        "checkpoint", nargs="?", help="a Hub repo id or a local checkpoint directory (default: the demo)"
    )
    inspect.add_argument(
        "--prompt", default=DEFAULT_PROMPT, help=f"the prompt of the trace (default: {DEFAULT_PROMPT!r})"
    )
    families = commands.add_parser("families", help="the coverage table of every shipped family, read off the code")
    families.add_argument("--markdown", action="store_true", help="print the page site/docs/families.md holds")
    return parser


#: What `python -m nnterp scaffold ...` is told: the scaffold drafts with the harness's checkpoints and suite.
SCAFFOLD_MOVED = (
    "nnterp has no scaffold command: the scaffold lives in the test harness. Install it with "
    "`pip install ./harness` (from the nnterp repository) and run `python -m nnterp_harness.scaffold {arguments}`"
)


def _support_lines(support: dict) -> list[str]:
    lines = []
    width = max(len(name) for name in support)
    for name, reason in support.items():
        if reason is None:
            lines.append(f"  {name:<{width}}  available")
        elif isinstance(reason, dict):
            reasons = sorted(set(reason.values()))
            blocks = ", ".join(str(layer) for layer in sorted(reason))
            lines.append(f"  {name:<{width}}  unavailable on blocks {blocks}: {'; '.join(reasons)}")
        else:
            lines.append(f"  {name:<{width}}  unavailable: {reason}")
    return lines


def inspect(source: str, prompt: str, out=None) -> None:
    """Load `source` and print the report to `out` (the current `sys.stdout` by default); errors propagate."""
    import nnsight

    from .components import PostLNLayer
    from .encoders import is_encoder
    from .standardized import StandardizedTransformer

    model = StandardizedTransformer(source, dispatch=True, attn_implementation="eager", device="cpu")
    out = sys.stdout if out is None else out  # read at the call: a caller may have redirected it
    write = lambda line="": print(line, file=out)  # noqa: E731
    write(f"checkpoint  {source}")
    write(f"model_type  {model.config.model_type}")
    write(f"family      {model.family.__name__}")
    sizes = ("num_layers", "hidden_size", "vocab_size", "num_heads", "num_kv_heads", "head_dim", "intermediate_size")
    write("sizes       " + ", ".join(f"{name}={_size(model, name)}" for name in sizes))
    write()
    write("block 0, standard names beside native ones (alias/native), with its values:")
    write(repr(model.layers[0]))
    write()
    support = model.support()
    write("support(): what this checkpoint has, and why not where it lacks a value")
    for line in _support_lines(support):
        write(line)
    write()

    blocks = range(len(model.layers))
    has = {
        name: support.get(name, "absent") is None
        for name in ("self_attn.attention_output", "mlp.mlp_output", "layer_input")
    }
    identity = has["self_attn.attention_output"] and has["mlp.mlp_output"]
    # A post-LN block norms after each add, so its identity is the first half of the chain.
    post_ln = isinstance(model.layers[0], PostLNLayer)
    encoder = is_encoder(model.family)
    if encoder and model.tokenizer.mask_token not in prompt:
        prompt = f"{prompt} {model.tokenizer.mask_token}."
    errors, lens = [], []
    with model.trace(prompt):
        if encoder:
            position = model.mask_token_mask[0].nonzero()[0, 0].save()
        for index in blocks:
            block = model.layers[index]
            if identity:
                x = block.layer_input
                attn = block.self_attn.attention_output
                mid = block.layer_mid if post_ln else None
                mlp = block.mlp.mlp_output
            out_stream = block.layer_output
            if identity:
                total = mid if post_ln else out_stream
                errors.append(((x + attn + (0 if post_ln else mlp)) - total).abs().max().item())
            at = position if encoder else -1
            lens.append(model.project_on_vocab(out_stream)[0, at].detach().float().softmax(-1))
        errors = nnsight.save(errors)
        lens = nnsight.save(lens)
        final = model.logits[0, position if encoder else -1].detach().float().softmax(-1).save()
    ids = model.tokenizer(prompt)["input_ids"]
    where = f", read at the mask token, position {int(position)}" if encoder else ""
    write(f"one trace on {prompt!r} ({len(ids)} tokens{where})")
    answer = int(final.argmax())
    answer_text = model.tokenizer.decode([answer])
    if identity and post_ln:
        write("contribution identity of a post-LN block, layer_input + attention_output == layer_mid:")
    elif identity:
        write("contribution identity, layer_input + attention_output + mlp_output == layer_output:")
    else:
        write("contribution identity: not checked, this checkpoint lacks a contribution (see support())")
    if identity:
        for index, error in zip(blocks, errors):
            write(f"  block {index}: max |difference| = {error:.3g}")
    write(f"logit lens (project_on_vocab on each block's layer_output), top token and P({answer_text!r}):")
    for index, probs in zip(blocks, lens):
        top = int(probs.argmax())
        write(
            f"  block {index}: {model.tokenizer.decode([top])!r:<14} p={float(probs[top]):.3f}   P({answer_text!r})={float(probs[answer]):.3f}"
        )
    what = "prediction at the mask" if encoder else "next token"
    write(f"model's {what}: {answer_text!r} (p={float(final[answer]):.3f})")


def _size(model, name: str):
    try:
        return getattr(model, name)
    except Exception as error:  # a size the config does not spell reads as its error
        return f"<{type(error).__name__}>"


def _check_local(source: str) -> None:
    """A path that names no checkpoint fails here, before transformers takes it for a repo id."""
    path = Path(source)
    looks_local = source.startswith((".", "/", "~")) or path.exists()
    if looks_local and not (path.expanduser() / "config.json").is_file():
        raise FileNotFoundError(f"{source} is not a checkpoint: it has no config.json")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["scaffold"]:
        arguments = shlex.join(argv[1:]) or "<model_type> [--out DIR] [--no-run]"
        print(f"python -m nnterp: {SCAFFOLD_MOVED.format(arguments=arguments)}", file=sys.stderr)
        return 2
    args = _parser().parse_args(argv)
    from .families import UnsupportedFamily

    if args.command == "families":
        from . import coverage

        table = coverage.rows()
        sys.stdout.write(coverage.markdown(table) if args.markdown else coverage.text(table))
        return 0

    try:
        source = args.checkpoint or str(demo_checkpoint())
        _check_local(source)
        inspect(source, args.prompt)
    except (UnsupportedFamily, OSError, ValueError, FileNotFoundError) as error:
        print(f"nnterp inspect: {error}", file=sys.stderr)
        return 2
    return 0
