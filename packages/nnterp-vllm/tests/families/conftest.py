"""The vLLM family suites run where vLLM imports (the ``vllm`` nox session); elsewhere they are not collected.

Where pytest-timeout is installed (the ``vllm`` nox session installs it), each test, its class's engine build
included, fails after `TIMEOUT` seconds, so an engine that hangs fails its test instead of stalling the session.
"""

import importlib.util

import pytest

collect_ignore_glob = [] if importlib.util.find_spec("vllm") is not None else ["test_*.py"]

#: Seconds a test may take, the engine build its class's first test waits for included.
TIMEOUT = 300


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("timeout"):
        return
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(TIMEOUT))
