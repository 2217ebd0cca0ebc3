"""The vLLM family suites run where vLLM imports (the ``vllm`` nox session); elsewhere they are not collected."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("vllm") is not None else ["test_*.py"]
