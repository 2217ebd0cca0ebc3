"""The CPU engine's first run: a checkpoint it cannot run is refused before the build, and a load that sets no
KV cache gets one sized for its sequences, not vLLM's several GiB."""

import sys

import pytest
import torch
from nnsight.modeling.vllm.vllm import VLLM

from nnterp import StandardizedVLLM
from nnterp_harness.locate import checkpoint_path
from nnterp_harness.vllm_suite import WIDE_HEADS, resized_checkpoint, shutdown
from nnterp_vllm.cpu import kv_bytes_per_token
from nnterp_vllm.families import llama
from nnterp_vllm.workers import on_cpu

pytestmark = pytest.mark.skipif(not on_cpu(), reason="vLLM runs on a GPU here")


def test_narrow_heads_are_refused_before_the_engine_is_built(monkeypatch):
    def build(*args, **kwargs):
        raise AssertionError("the engine was built for a checkpoint the CPU attention cannot run")

    monkeypatch.setattr(VLLM, "__init__", build)
    with pytest.raises(ValueError, match=r"heads 16 wide \(head_dim=16\), and vLLM's CPU attention takes heads 32, "):
        StandardizedVLLM(str(checkpoint_path("llama")), dispatch=True, dtype="float32", max_model_len=128)


def test_a_load_that_sizes_nothing_gets_a_cache_for_its_sequences(tmp_path):
    path = resized_checkpoint("llama", WIDE_HEADS, tmp_path)
    hook = sys.excepthook
    model = StandardizedVLLM(path, dispatch=True, dtype="float32", max_model_len=128, max_num_seqs=2, seed=0)
    try:
        assert model.family is llama
        # The in-process engine's torch.distributed leaves no "[rank0]: " prefix on this process's errors.
        assert sys.excepthook is hook
        cache = model.vllm_entrypoint.llm_engine.vllm_config.cache_config
        assert cache.kv_cache_memory_bytes == kv_bytes_per_token(model.config, 4) * 128 * 2
        with model.trace("The Eiffel Tower is in", temperature=0.0, max_tokens=1):
            logits = model.logits.save()
        assert logits.shape[-1] == model.vocab_size and torch.isfinite(logits).all()
    finally:
        shutdown(model)
