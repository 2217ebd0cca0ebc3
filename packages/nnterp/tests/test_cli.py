"""`python -m nnterp inspect`: the report on a checkpoint, and its errors."""

import os
import subprocess
import sys


def run(*args):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "nnterp", "inspect", *args], capture_output=True, text=True, env=env)


def test_inspect_a_family_checkpoint(path):
    result = run(path("gemma2"), "--prompt", "The Eiffel Tower is in")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "family      nnterp.families.gemma2" in out
    assert "(self_attn): " in out and "layer_output" in out
    assert "self_attn.attention_probabilities" in out
    assert out.count("max |difference| = 0") >= 1
    assert "logit lens" in out


def test_inspect_a_path_that_is_no_checkpoint(tmp_path):
    result = run(str(tmp_path))
    assert result.returncode != 0
    assert "is not a checkpoint" in result.stderr


def test_inspect_a_parallel_checkpoint_names_the_missing_value(path):
    result = run(path("gpt_neox"))
    assert result.returncode == 0, result.stderr
    assert "a parallel block" in result.stdout
