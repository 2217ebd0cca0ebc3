"""Root tests of nnterp: nnsight is imported before anything can import a transformers modeling module."""

import os

import nnsight  # noqa: F401  - first, before any transformers.models.* module
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def checkpoint(name: str) -> str:
    from nnterp_harness.locate import checkpoint_path

    return str(checkpoint_path(name))


@pytest.fixture(scope="session")
def path():
    """`path(name)`: the pinned tiny checkpoint directory of that name."""
    return checkpoint


@pytest.fixture(scope="module")
def gpt2(path):
    from nnterp import StandardizedTransformer

    return StandardizedTransformer(path("gpt2"), dispatch=True, attn_implementation="eager")


@pytest.fixture(scope="module")
def llama(path):
    from nnterp import StandardizedTransformer

    return StandardizedTransformer(path("llama"), dispatch=True, attn_implementation="eager")
