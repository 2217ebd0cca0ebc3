"""`python -m nnterp inspect`: the report on a checkpoint, and its errors."""

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from nnterp.inspect import main


def run(*args):
    """`python -m nnterp inspect ARGS` in a new interpreter, as a user runs it."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "nnterp", "inspect", *args], capture_output=True, text=True, env=env)


@pytest.fixture
def inspect_here(capsys):
    """The same command's `main`, in this process: the modules the other tests imported serve it again."""

    def call(*args):
        code = main(["inspect", *args])
        out, err = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out, stderr=err)

    return call


def test_inspect_a_family_checkpoint(path, inspect_here):
    result = inspect_here(path("gemma2"), "--prompt", "The Eiffel Tower is in")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "family      nnterp.families.gemma2" in out
    assert "(self_attn): " in out and "layer_output" in out
    assert "self_attn.attention_probabilities" in out
    assert out.count("max |difference| = 0") >= 1
    assert "logit lens" in out


def test_inspect_an_encoder_reads_the_mask_and_the_post_ln_identity(path, inspect_here):
    result = inspect_here(path("bert"), "--prompt", "The Eiffel Tower is in the city of")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "family      nnterp.families.bert" in out
    assert "the city of [MASK].'" in out and "read at the mask token, position 9" in out
    assert "post-LN block, layer_input + attention_output == layer_mid" in out
    assert out.count("max |difference| = 0\n") == 2
    assert "model's prediction at the mask" in out


def test_inspect_a_path_that_is_no_checkpoint(tmp_path, inspect_here):
    result = inspect_here(str(tmp_path))
    assert result.returncode != 0
    assert "is not a checkpoint" in result.stderr


def test_inspect_a_parallel_checkpoint_names_the_missing_value(path, inspect_here):
    result = inspect_here(path("gpt_neox"))
    assert result.returncode == 0, result.stderr
    assert "a parallel block" in result.stdout


def test_inspect_a_type_the_default_cannot_standardize(tmp_path, path, inspect_here):
    import shutil

    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    torch.manual_seed(0)
    # Reformer: a causal-LM type with no family, whose layout no default spelling names.
    config = AutoConfig.for_model(
        "reformer",
        vocab_size=1024,
        hidden_size=32,
        feed_forward_size=64,
        num_attention_heads=2,
        attention_head_size=16,
        axial_pos_embds=False,
        attn_layers=["local", "local"],
        local_attn_chunk_length=8,
        is_decoder=True,
    )
    AutoModelForCausalLM.from_config(config).save_pretrained(tmp_path)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(f"{path('llama')}/{name}", tmp_path / name)
    result = inspect_here(str(tmp_path))
    assert result.returncode != 0
    assert "the default family cannot standardize ReformerModelWithLMHead" in result.stderr
    assert "rename=" in result.stderr


def test_inspect_the_demo_by_default():
    result = run()
    assert result.returncode == 0, result.stderr
    assert "family      nnterp.families.llama" in result.stdout
    lens = [line for line in result.stdout.splitlines() if line.strip().startswith("block") and "P(' Paris')" in line]
    assert len(lens) == 4 and "' Paris'" in lens[-1]
