"""The pytest plugin every nnterp test run loads (the ``nnterp_harness`` entry point).

At import, before pytest collects anything:

- ``nnsight`` is imported first, since a transformers modeling module imported
  before it can crash the interpreter;
- ``HF_HUB_OFFLINE`` defaults to ``1`` (the tiny checkpoints are local, and a run
  never touches the Hub) and ``CUDA_VISIBLE_DEVICES`` to ``""`` (the fixtures load
  with ``dispatch=True`` and no ``device=``, which would put a model on any visible
  GPU); an explicit value in the environment wins over both;
- under pytest-xdist, each worker runs torch on one thread, so ``-n`` workers do
  not oversubscribe the cores.

At collection, every test of a :class:`~nnterp_harness.suite.FamilySuite` subclass
is marked ``xdist_group(<class name>)``, so under ``--dist loadgroup`` one class,
and with it its class-scoped models, stays on one worker.

The ``tiny_checkpoint`` fixture is a factory: ``tiny_checkpoint("llama")`` is the
path of ``tiny_checkpoints/llama`` (``$NNTERP_TINY_CHECKPOINTS`` overrides the
directory), and a missing checkpoint is a ``FileNotFoundError`` naming the known ones.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import nnterp  # noqa: E402,F401  # isort: skip  - defines anyio's typed-attribute classes, then imports nnsight
import nnsight  # noqa: E402,F401  - before any transformers modeling module
import pytest  # noqa: E402
import torch  # noqa: E402

from . import locate  # noqa: E402

if os.environ.get("PYTEST_XDIST_WORKER"):
    torch.set_num_threads(1)


def pytest_configure(config: pytest.Config) -> None:
    # pytest-xdist registers the marker itself; registering it here as well keeps a
    # run without xdist free of unknown-marker warnings.
    config.addinivalue_line(
        "markers", "xdist_group(name): keep every test of the group on one xdist worker (--dist loadgroup)"
    )


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each `FamilySuite` subclass's tests with `xdist_group(<class name>)`."""
    from .suite import FamilySuite

    for item in items:
        cls = getattr(item, "cls", None)
        if isinstance(cls, type) and issubclass(cls, FamilySuite):
            item.add_marker(pytest.mark.xdist_group(cls.__name__))


def checkpoint(name: str):
    """The directory of the pinned tiny checkpoint `name`; raises `FileNotFoundError` when absent."""
    return locate.checkpoint_path(name)


@pytest.fixture(scope="session")
def tiny_checkpoint():
    """A factory: `tiny_checkpoint(name)` is the `Path` of `tiny_checkpoints/<name>`."""
    return checkpoint
