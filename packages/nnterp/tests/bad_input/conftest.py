"""The bad-input contract, one file per area a user touches.

Each test names one mistake a user can make through the public API and the error
it gets: what was wrong (the value given), what was expected and the fix, in
nnterp's names. Where the mistake is visible before the model runs, the error
comes before it runs; nothing is accepted silently; the model stays usable after
every failure.
"""

import shutil

import pytest

from nnterp import StandardizedTransformer


@pytest.fixture(scope="module")
def lazy(path):
    """gpt2 without dispatch: every check that needs no weights runs on it."""
    return StandardizedTransformer(path("gpt2"))


@pytest.fixture
def copy(path, tmp_path):
    """`copy(name)`: a writable copy of a pinned checkpoint."""

    def make(name: str):
        target = tmp_path / name
        shutil.copytree(path(name), target)
        return target

    return make
