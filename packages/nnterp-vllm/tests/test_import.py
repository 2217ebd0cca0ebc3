"""The placeholder package imports without vLLM and refuses to build the engine, saying why."""

import os
import subprocess
import sys

import pytest

import nnterp_vllm


def test_version():
    assert nnterp_vllm.__version__ == "2.0.0"


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
    assert done.stdout.strip() == "2.0.0"


def test_standardized_vllm_is_exposed():
    from nnterp_vllm import StandardizedVLLM

    assert StandardizedVLLM is nnterp_vllm.StandardizedVLLM
    assert "StandardizedVLLM" in nnterp_vllm.__all__


@pytest.mark.parametrize(
    "args, kwargs",
    [((), {}), (("path/to/checkpoint",), {"dispatch": True, "dtype": "float32"})],
)
def test_calling_it_raises_with_the_message(args, kwargs):
    with pytest.raises(NotImplementedError) as error:
        nnterp_vllm.StandardizedVLLM(*args, **kwargs)
    message = str(error.value)
    assert message == "the vLLM engine is not part of this release; use nnterp.StandardizedTransformer"
    assert "nnterp.StandardizedTransformer" in message
