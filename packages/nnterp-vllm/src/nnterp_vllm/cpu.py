"""What vLLM's CPU build needs settled before its engine is built: the heads it can run and its KV cache's size.

Both are checked on the client, from the checkpoint's config, so a checkpoint the CPU engine
cannot run is refused in a line before the engine spends half a minute building, and a tiny
model does not reserve the several GiB of KV cache vLLM's CPU worker takes by default.
"""

from __future__ import annotations

import os
from typing import Any

#: The share of the machine's available memory a KV cache sized here may take at most.
KV_SHARE_OF_AVAILABLE = 0.25
#: The sequences a KV cache sized here holds when the load does not say `max_num_seqs`.
DEFAULT_SEQUENCES = 4
#: The sequence length a KV cache sized here holds when neither the load nor the config says one.
DEFAULT_MODEL_LEN = 2048


def _text(config: Any) -> Any:
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def head_dim(config: Any) -> int | None:
    """The width of one attention head: the config's `head_dim`, else the hidden size over the heads."""
    text = _text(config)
    explicit = getattr(text, "head_dim", None)
    if isinstance(explicit, int) and explicit > 0:
        return explicit
    hidden, heads = getattr(text, "hidden_size", None), getattr(text, "num_attention_heads", None)
    if isinstance(hidden, int) and isinstance(heads, int) and heads > 0:
        return hidden // heads
    return None


def cpu_head_sizes() -> list[int]:
    """The head widths vLLM's CPU attention backend takes, as it lists them."""
    from vllm.v1.attention.backends.cpu_attn import CPUAttentionBackend

    return list(CPUAttentionBackend.get_supported_head_sizes())


def refuse_unsupported_heads(config: Any, source: Any, supported: list[int]) -> None:
    """Raise before the engine is built where vLLM's CPU attention has no kernel for the checkpoint's head width.

    Latent attention (a config with `kv_lora_rank`: MiniCPM3, DeepSeek-V2/V3) is left to
    vLLM, which runs it at widths of its own making rather than the config's `head_dim`.
    """
    if getattr(_text(config), "kv_lora_rank", None):
        return
    width = head_dim(config)
    if width is not None and supported and width not in supported:
        raise ValueError(
            f"{source!r} has attention heads {width} wide (head_dim={width}), and vLLM's CPU attention takes heads "
            f"{', '.join(map(str, supported))} wide; run this checkpoint on StandardizedTransformer or on vLLM on a "
            "GPU, or rebuild it with one of those head widths"
        )


def kv_bytes_per_token(config: Any, dtype_bytes: int) -> int:
    """What one token's keys and values take across every block."""
    text = _text(config)
    layers = getattr(text, "num_hidden_layers", None) or 1
    heads = getattr(text, "num_attention_heads", None) or 1
    kv_heads = getattr(text, "num_key_value_heads", None) or heads
    return 2 * layers * kv_heads * (head_dim(config) or 1) * dtype_bytes


def _dtype_bytes(config: Any, kwargs: dict) -> int:
    name = str(kwargs.get("dtype") or getattr(_text(config), "dtype", None) or "float32")
    return 2 if any(half in name for half in ("16", "half")) else 4


def _available_memory() -> int | None:
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def size_kv_cache(config: Any, kwargs: dict, available: int | None = None) -> None:
    """Set `kv_cache_memory_bytes` in `kwargs` for the load's sequences, where neither it nor the environment says one.

    The cache holds `max_num_seqs` sequences (`DEFAULT_SEQUENCES` when unset) of
    `max_model_len` tokens (the config's `max_position_embeddings`, else
    `DEFAULT_MODEL_LEN`), and at most `KV_SHARE_OF_AVAILABLE` of the available memory,
    though never less than one whole sequence, which vLLM requires.
    """
    if "kv_cache_memory_bytes" in kwargs or os.environ.get("VLLM_CPU_KVCACHE_SPACE"):
        return
    text = _text(config)
    length = kwargs.get("max_model_len") or getattr(text, "max_position_embeddings", None) or DEFAULT_MODEL_LEN
    sequences = kwargs.get("max_num_seqs") or DEFAULT_SEQUENCES
    per_token = kv_bytes_per_token(config, _dtype_bytes(config, kwargs))
    wanted = per_token * length * sequences
    available = _available_memory() if available is None else available
    if available:
        share = int(available * KV_SHARE_OF_AVAILABLE)
        if per_token * length > share:
            raise ValueError(
                f"one sequence of {length} tokens needs {per_token * length / 2**30:.1f} GiB of KV cache, more than "
                f"a quarter of the {available / 2**30:.1f} GiB this machine has free; pass a smaller max_model_len=, "
                "or kv_cache_memory_bytes= to size the cache yourself"
            )
        wanted = min(wanted, share)
    kwargs["kv_cache_memory_bytes"] = max(wanted, per_token * length)
