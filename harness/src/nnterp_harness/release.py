"""What the installed transformers release has: the model types it knows, and the skip for the rest.

A family's test file loads its family with `family("dory")`: on a release that has
the model type this is `nnterp.families.<module>`; on one that lacks it the whole
file is skipped with a reason read off the installed release and the pinned
checkpoint's manifest, so no test names a release by hand.
"""

from __future__ import annotations

import json
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import transformers
from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

from nnterp import families

from . import locate


def module_name(model_type: str) -> str:
    """The family module's (and checkpoint's) name for `model_type`, as `nnterp.families.module_name` spells it."""
    return families.module_name(model_type)


def has_model_type(model_type: str) -> bool:
    """Whether the installed transformers release knows `model_type`."""
    return model_type in CONFIG_MAPPING_NAMES


def built_with(checkpoint: str) -> str | None:
    """The transformers release the pinned checkpoint `checkpoint` was built with, from its manifest."""
    try:
        manifest = json.loads((locate.checkpoint_path(checkpoint) / "manifest.json").read_text())
    except (FileNotFoundError, ValueError):
        return None
    return manifest.get("transformers")


def missing_reason(model_type: str, checkpoint: str | None = None) -> str:
    """Why a test of `model_type` cannot run on the installed release."""
    built = built_with(checkpoint or module_name(model_type))
    pinned = f"; its tiny checkpoint was built with transformers {built}" if built else ""
    return (
        f"model_type {model_type!r} arrives in transformers after {transformers.__version__}: "
        f"this release does not have it{pinned}"
    )


def skip_unless_known(model_type: str, checkpoint: str | None = None) -> None:
    """Skip the calling test (or, at module level, the whole file) when the release lacks `model_type`."""
    if not has_model_type(model_type):
        pytest.skip(missing_reason(model_type, checkpoint), allow_module_level=True)


def family(model_type: str) -> Any:
    """The shipped family module of `model_type`; skips the calling test file where the release lacks the type."""
    skip_unless_known(model_type)
    from nnterp.families import lookup_module

    return lookup_module(model_type)
