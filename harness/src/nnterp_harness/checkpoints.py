"""Tiny random-weight checkpoints, one or more per family.

Each checkpoint is declared by an :class:`~nnterp_harness.entry.Entry` (its model type and
config overrides), data in ``data/entries.yaml`` or a module of `nnterp_harness.entries`, and
built deterministically: fixed seed, float32 (the vocabulary tables stored in bfloat16), the
harness tokenizer, and a ``manifest.json`` that pins the sha256 of every file.

Command line::

    python -m nnterp_harness.checkpoints build [NAMES...] [--root DIR]
    python -m nnterp_harness.checkpoints verify [NAMES...] [--root DIR]

``build`` writes the tiny checkpoints (all of them by default) into the
repository's ``tiny_checkpoints/``; the trained ``demo`` checkpoint comes from
``python -m nnterp_harness.train_demo``. ``verify`` checks every manifest,
``demo`` included, and exits with status 1 naming each file that differs.
"""

import argparse
import contextlib
import hashlib
import json
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nnsight  # noqa: F401  (nnsight must be imported before transformers.models.*)
import torch
import transformers
from safetensors import safe_open
from safetensors.torch import load_file, save_file
from torch.overrides import TorchFunctionMode
from transformers import AutoConfig, PreTrainedModel, PreTrainedTokenizerBase

from . import entries, locate
from .entry import COMMON, Entry
from .tokenizer import build_encoder_tokenizer, build_tokenizer, encoder_token_ids, special_token_ids

SEED = 0
MANIFEST = "manifest.json"
DEMO_NAME = "demo"
#: The trained masked-LM demo (`nnterp_harness.train_mlm_demo`), the encoder guide's and tutorial's model.
MLM_DEMO_NAME = "demo_mlm"
# Std of the noise added to parameters that initialise to a constant (norm
# weights, biases), so that every saved value carries information.
CONSTANT_NOISE_STD = 0.1

#: Every tiny checkpoint, by name: the data entries and the `ENTRIES` of each module under `nnterp_harness.entries`.
ENTRIES: dict[str, Entry] = entries.collect()
# Every checkpoint with a manifest: the tiny ones and the two trained demos.
ALL_NAMES: tuple[str, ...] = (*ENTRIES, DEMO_NAME, MLM_DEMO_NAME)


def tokenizer_for(kind: str, config: transformers.PretrainedConfig | None = None) -> PreTrainedTokenizerBase:
    """The tokenizer of the given kind: ``"bpe"`` (the decoders') or ``"encoder"`` (the masked LMs').

    With a config, the tokenizer's ``model_max_length`` is capped at the
    model's position limit where the model has one.
    """
    builders = {"bpe": build_tokenizer, "encoder": build_encoder_tokenizer}
    if kind not in builders:
        raise ValueError(f"unknown tokenizer kind {kind!r}: the kinds are {sorted(builders)}")
    tokenizer = builders[kind]()
    limit = getattr(config, "max_position_embeddings", None) if config is not None else None
    if isinstance(limit, int):
        tokenizer.model_max_length = min(tokenizer.model_max_length, limit)
    return tokenizer


def make_config(entry: Entry) -> transformers.PretrainedConfig:
    """The config of ``entry``: family defaults, the shared settings, then its overrides."""
    config = AutoConfig.for_model(entry.model_type, **{**COMMON, **entry.overrides})
    if entry.configure is not None:
        entry.configure(config)
    return config


def _perturb_constants(model: torch.nn.Module, seed: int) -> None:
    """Add noise to every parameter that initialised to a single repeated value."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for _, param in model.named_parameters():
            if param.numel() > 0 and bool((param == param.reshape(-1)[0]).all()):
                noise = torch.randn(param.shape, generator=generator, dtype=param.dtype)
                param.add_(noise * CONSTANT_NOISE_STD)


#: The elementwise transcendental functions whose float32 result a CPU's vector unit decides to the last bit.
TRANSCENDENTAL = frozenset(
    function
    for name in ("exp", "expm1", "exp2", "log", "log1p", "log2", "log10", "sigmoid", "tanh", "sin", "cos")
    for function in (getattr(torch, name), getattr(torch.Tensor, name))
)


class Float32TranscendentalsInFloat64(TorchFunctionMode):
    """Runs each float32 transcendental function (`TRANSCENDENTAL`) in float64 and rounds its result once.

    torch's float32 `log` and `exp` differ in the last bit between CPUs (an AVX-512 and an
    AVX2 machine disagree on `log(3)`), and some inits compute in float32 whatever the
    model's dtype (Mamba's `A_log = log(1..state_size)` and its `dt_proj` bias). Computed
    in float64, the float32 rounding is the same on every machine; the arithmetic around
    it (additions, products) is exact IEEE rounding already.
    """

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in TRANSCENDENTAL and not kwargs and len(args) == 1:
            (tensor,) = args
            if isinstance(tensor, torch.Tensor) and tensor.dtype == torch.float32:
                return func(tensor.double()).float()
        return func(*args, **kwargs)


def make_model(entry: Entry) -> PreTrainedModel:
    """The randomly initialised float32 model of ``entry``, in eval mode."""
    config = make_config(entry)
    torch.manual_seed(SEED)
    dtype = torch.float64 if entry.init_in_float64 else torch.float32
    exact = Float32TranscendentalsInFloat64() if entry.init_in_float64 else contextlib.nullcontext()
    with exact:
        model = getattr(transformers, entry.auto_class).from_config(config, dtype=dtype)
        _perturb_constants(model, SEED + 1)
        if entry.prepare is not None:
            with torch.no_grad():
                entry.prepare(model)
    if entry.init_in_float64:
        model = model.to(torch.float32)
        _stamp_float32(model.config)
    return model.eval()


def _stamp_float32(config: transformers.PretrainedConfig) -> None:
    """Set ``dtype`` to float32 on `config` and each of its sub-configs, as a float32 build writes them."""
    config.dtype = torch.float32
    for key in getattr(config, "sub_configs", {}):
        sub = getattr(config, key, None)
        if isinstance(sub, transformers.PretrainedConfig):
            _stamp_float32(sub)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _files(directory: Path) -> list[str]:
    return sorted(
        p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file() and p.name != MANIFEST
    )


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def minify_json(path: Path) -> None:
    """Rewrite the JSON file at `path` without indentation or spaces, keeping its key order.

    The shared tokenizer's ``tokenizer.json`` is 55 KB as `save_pretrained` indents it and
    21 KB written compactly; the tokenizer loads the same from either.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def store_vocab_tables_in_bfloat16(path: Path, vocab_size: int) -> None:
    """Rewrite the safetensors file at `path` with its vocabulary tables in bfloat16.

    A vocabulary table is a two-dimensional float32 tensor with one row per token (the
    embeddings, an untied head, per-layer token embeddings); at hidden size 64 each one
    is 0.26 MB of the 1 MB a tiny checkpoint may take, and bfloat16 halves it. Every
    other tensor stays float32. The config keeps ``dtype: float32``, so `from_pretrained`
    loads the tables back as float32 holding the rounded values, on either engine.
    """
    with safe_open(path, "pt") as handle:
        metadata = handle.metadata()
    tensors = load_file(path)
    for key, tensor in tensors.items():
        if tensor.dtype == torch.float32 and tensor.ndim == 2 and tensor.shape[0] == vocab_size:
            tensors[key] = tensor.to(torch.bfloat16)
    save_file(tensors, path, metadata=metadata)


def save_checkpoint(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    dest: Path | str,
    name: str,
    *,
    compact_vocab: bool = True,
) -> Path:
    """Save model, tokenizer and a manifest naming the checkpoint ``name`` into
    ``dest``, replacing what is there.

    With ``compact_vocab`` (the tiny checkpoints) the vocabulary tables are stored
    in bfloat16 (`store_vocab_tables_in_bfloat16`); the trained demo keeps float32.

    The special token ids go into the model and generation configs, and
    ``tokenizer.json`` is written compactly (`minify_json`). The files
    are first written to a temporary directory beside ``dest``, so an
    interrupted save leaves the previous checkpoint intact.
    """
    dest = Path(dest).resolve()
    root = dest.parent
    root.mkdir(parents=True, exist_ok=True)
    ids = special_token_ids()
    if getattr(tokenizer, "mask_token_id", None) is not None:
        # An encoder's config names the tokenizer's framing and mask tokens where it has keys for them (ModernBERT).
        ids.update({key: value for key, value in encoder_token_ids().items() if hasattr(model.config, key)})
    generation = getattr(model, "generation_config", None)  # an encoder that cannot generate has none
    for key, value in ids.items():
        # A config that lists the id keeps it listed (Phi-4-multimodal's replaces an unlisted eos id of 0).
        if isinstance(getattr(model.config, key, None), list):
            value = [value]
        setattr(model.config, key, value)
        if generation is not None:
            setattr(generation, key, value)
    with tempfile.TemporaryDirectory(dir=root, prefix=f".{name}-") as tmp:
        staging = Path(tmp) / name
        model.save_pretrained(staging)
        if compact_vocab:
            store_vocab_tables_in_bfloat16(staging / "model.safetensors", model.config.get_text_config().vocab_size)
        tokenizer.save_pretrained(staging)
        minify_json(staging / "tokenizer.json")
        manifest = {
            "name": name,
            "model_type": model.config.model_type,
            "transformers": transformers.__version__,
            "files": {rel: sha256_file(staging / rel) for rel in _files(staging)},
        }
        _write_json(staging / MANIFEST, manifest)
        if dest.exists():
            shutil.rmtree(dest)
        staging.rename(dest)
    return dest


def build(name: str, root: Path | str | None = None) -> Path:
    """Build tiny checkpoint ``name`` into ``root`` (the repository's by default)."""
    if name not in ENTRIES:
        trained = {DEMO_NAME: "train_demo", MLM_DEMO_NAME: "train_mlm_demo"}
        hint = f" (built by python -m nnterp_harness.{trained[name]})" if name in trained else ""
        raise KeyError(f"no tiny checkpoint entry {name!r}{hint}; entries: {', '.join(ENTRIES)}")
    return build_entry(ENTRIES[name], root)


def build_entry(entry: Entry, root: Path | str | None = None) -> Path:
    """Build the checkpoint `entry` declares into `root` (the repository's by default), entry or not."""
    model = make_model(entry)
    tokenizer = tokenizer_for(entry.tokenizer, model.config)
    if entry.processor is not None:
        tokenizer = entry.processor(tokenizer, model.config)
    base = Path(root) if root is not None else locate.output_root()
    return save_checkpoint(model, tokenizer, base / entry.name, entry.name)


def _problems(name: str, root: Path) -> list[tuple[str, str]]:
    directory = root / name
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file():
        return [(MANIFEST, "missing")]
    recorded: dict[str, str] = json.loads(manifest_path.read_text(encoding="utf-8"))["files"]
    problems: list[tuple[str, str]] = []
    for rel, expected in sorted(recorded.items()):
        path = directory / rel
        if not path.is_file():
            problems.append((rel, "missing"))
        elif sha256_file(path) != expected:
            problems.append((rel, "sha256 differs from the manifest"))
    for rel in _files(directory):
        if rel not in recorded:
            problems.append((rel, "not listed in the manifest"))
    return problems


def verify(name: str, root: Path | str | None = None) -> list[str]:
    """The files of checkpoint ``name`` that are missing, altered or unlisted.

    An empty list means the directory matches its manifest exactly.
    """
    base = Path(root) if root is not None else locate.checkpoints_root()
    return [rel for rel, _ in _problems(name, base)]


def _cmd_build(names: Iterable[str], root: Path) -> int:
    for name in names:
        path = build(name, root)
        print(f"built {name}: {path}")
    return 0


def _cmd_verify(names: Iterable[str], root: Path) -> int:
    status = 0
    for name in names:
        problems = _problems(name, root)
        for rel, why in problems:
            print(f"{name}/{rel}: {why}", file=sys.stderr)
            status = 1
        if not problems:
            print(f"{name}: ok")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nnterp_harness.checkpoints", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("build", "verify"))
    parser.add_argument("names", nargs="*", help="checkpoints to act on (default: all)")
    parser.add_argument("--root", type=Path, help="checkpoints directory (default: the repository's)")
    args = parser.parse_args(argv)
    if args.command == "build":
        names = args.names or list(ENTRIES)
        root = args.root if args.root is not None else locate.output_root()
        return _cmd_build(names, root)
    names = args.names or list(ALL_NAMES)
    root = args.root if args.root is not None else locate.checkpoints_root()
    return _cmd_verify(names, root)


if __name__ == "__main__":
    sys.exit(main())
