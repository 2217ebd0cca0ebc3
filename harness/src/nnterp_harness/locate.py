"""Finding the repository's ``tiny_checkpoints`` directory."""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "NNTERP_TINY_CHECKPOINTS"
DIR_NAME = "tiny_checkpoints"
# A checkpoints directory counts as found once it holds one of these.
_MARKERS = ("demo", "llama")


def _walk_up(start: Path, *, populated: bool) -> Path | None:
    for directory in (start, *start.parents):
        candidate = directory / DIR_NAME
        if not candidate.is_dir():
            continue
        if not populated or any((candidate / marker).is_dir() for marker in _MARKERS):
            return candidate
    return None


def checkpoints_root() -> Path:
    """The directory that holds the tiny checkpoints.

    ``$NNTERP_TINY_CHECKPOINTS`` wins when set. Otherwise the search walks up
    from this file's directory, then from the working directory, for a
    ``tiny_checkpoints/`` directory that holds a ``demo`` or ``llama`` checkpoint.
    """
    override = os.environ.get(ENV_VAR)
    if override:
        path = Path(override).expanduser().resolve()
        if not path.is_dir():
            raise FileNotFoundError(f"{ENV_VAR}={override!r} is not a directory")
        return path
    for start in (Path(__file__).resolve().parent, Path.cwd().resolve()):
        found = _walk_up(start, populated=True)
        if found is not None:
            return found
    raise FileNotFoundError(
        f"no {DIR_NAME}/ directory with a 'demo' or 'llama' checkpoint was found above "
        f"{Path(__file__).resolve().parent} or {Path.cwd()}; set {ENV_VAR} to its path"
    )


def output_root() -> Path:
    """Where the builders write: like :func:`checkpoints_root`, but an empty
    ``tiny_checkpoints/`` directory is accepted, and failing that the one next to
    the ``harness`` directory this file lives in is used."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser().resolve()
    for start in (Path(__file__).resolve().parent, Path.cwd().resolve()):
        found = _walk_up(start, populated=False)
        if found is not None:
            return found
    here = Path(__file__).resolve()
    for directory in here.parents:
        if directory.name == "harness":
            return directory.parent / DIR_NAME
    raise FileNotFoundError(f"cannot tell where {DIR_NAME}/ belongs; set {ENV_VAR} to its path")


def checkpoint_path(name: str) -> Path:
    """The directory of checkpoint ``name`` (``"llama"``, ``"demo"``, ...)."""
    root = checkpoints_root()
    path = root / name
    if not (path / "config.json").is_file():
        known = sorted(p.name for p in root.iterdir() if (p / "config.json").is_file())
        raise FileNotFoundError(f"no checkpoint {name!r} in {root}; known checkpoints: {', '.join(known) or 'none'}")
    return path
