"""`StandardizedVLLM`: nnsight's `VLLM` with nnterp's standard names and values.

The load reads the checkpoint's config, takes the family of its ``model_type``
from `nnterp.families.lookup(..., engine="vllm")` (a module of
`nnterp_vllm.families`), and hands the family's aliases and envoy classes to
nnsight, on the client's meta tree and, through the engine's
``additional_config``, on the tree the engine's worker builds over the real module,
which is where a trace's block runs.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

import torch
from nnsight.modeling.vllm.vllm import VLLM

from nnterp import families
from nnterp.components import DerivedEProperty, Residual, unavailable
from nnterp.standardized import FromLogits, Logits, NextTokenProbs, Standardized, Tokens, family_model_type, layer_index
from nnterp_vllm.components.reasons import LM_HEAD, NO_MASK, ORDER
from nnterp_vllm.components.values import Flat

from .cpu import cpu_head_sizes, refuse_unsupported_heads, size_kv_cache
from .workers import CONFIG_KEY, describe, on_cpu, quiet_accelerator, worker_class


class _Logits(Flat):
    """The step's logits, served by the engine's runner at ``<root>.logits``: ``[1, 1, vocab_size]``."""

    def _resolve(self, obj: Any, key: str) -> tuple[str, str]:
        return f"{obj.path}.{key}", "output"

    def _view(self, obj: Any, rows: torch.Tensor) -> torch.Tensor:
        return rows.unsqueeze(1)

    def _rows(self, obj: Any, value: torch.Tensor) -> torch.Tensor:
        return value[:, 0]

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        interleaver = getattr(obj, "interleaver", None)
        if interleaver is not None and not interleaver.interleaving:
            raise ValueError(
                f"Cannot access `{obj.path}.{self.key}` outside of interleaving: read values inside a trace"
            )
        return super().__get__(obj, owner)


def _embedding_scale(model: Any) -> float:
    """The factor vLLM applies to the embedding module's output outside it: the family's `embedding_scale`, else 1."""
    scale = getattr(model.family, "embedding_scale", None)
    return scale(model) if callable(scale) else 1.0


def _head_divisor(model: Any) -> float:
    """What vLLM divides the final norm's output by before the head: the family's `head_divisor`, else 1."""
    divisor = getattr(model.family, "head_divisor", None)
    return divisor(model) if callable(divisor) else 1.0


class _RootFlat(Flat):
    """A root value over ``[tokens, ...]`` rows, or over ``[1, tokens, ...]`` on a transformers-backend family."""

    def _view(self, obj: Any, rows: torch.Tensor) -> torch.Tensor:
        if getattr(obj.family, "BACKEND", False):
            return self._preprocess(obj, rows) if self._preprocess is not None else rows
        return super()._view(obj, rows)

    def _rows(self, obj: Any, value: torch.Tensor) -> torch.Tensor:
        if getattr(obj.family, "BACKEND", False):
            return self._postprocess(obj, value) if self._postprocess is not None else value
        return super()._rows(obj, value)


@contextlib.contextmanager
def _plain_excepthook() -> Iterator[None]:
    """Keep this process's `sys.excepthook` through a build that initialises torch.distributed here.

    torch.distributed wraps the hook to prefix every line of an uncaught error with
    "[rank0]: " (twice, for the two initialisations a client's meta model and an
    in-process engine make). The client is one process and one rank: its errors reach
    the user as Python prints them.
    """
    hook = sys.excepthook
    try:
        yield
    finally:
        if getattr(sys.excepthook, "__name__", "") == "_distributed_excepthook":
            sys.excepthook = hook


class StandardizedVLLM(Standardized, VLLM):
    """nnsight's `VLLM` with one set of module names and standard values on every vLLM family.

    Args:
        repo_id: A Hub repo id or a local checkpoint directory.
        family: The family for this load, a module or any object with `RENAME` and
            `ENVOYS` written against vLLM's module classes; the registry is not consulted.
        rename: Aliases merged over the family's `RENAME`; a key given here wins.
        envoys: Envoy classes merged over nnsight's envoys for vLLM's parallel layers
            and the family's `ENVOYS`; a key given here wins.
        **kwargs: Passed to nnsight's `VLLM`: ``dispatch``, ``mode``, ``taps`` and the
            engine's arguments (``dtype``, ``max_model_len``, ``gpu_memory_utilization``, ...).
    """

    def __init__(
        self,
        repo_id: Any,
        family: Any = None,
        rename: dict | None = None,
        envoys: dict | None = None,
        hf_config: Any = None,
        **kwargs: Any,
    ) -> None:
        worker_side = isinstance(repo_id, torch.nn.Module)
        if hf_config is None:
            from transformers import AutoConfig

            options = {key: kwargs[key] for key in ("revision", "trust_remote_code") if key in kwargs}
            hf_config = AutoConfig.from_pretrained(repo_id, **options)
        if family is None:
            family = families.lookup(family_model_type(hf_config, engine="vllm"), engine="vllm")
        for attribute in ("RENAME", "ENVOYS"):
            if not hasattr(family, attribute):
                raise TypeError(
                    f"family= takes a module or object with RENAME and ENVOYS; {family!r} has no {attribute}"
                )
        self.family = family
        self.config = hf_config
        merged_rename = {**family.RENAME, **(rename or {})}
        from nnsight.modeling.vllm.envoys import parallel_envoys

        merged_envoys = {**parallel_envoys(), **family.ENVOYS, **(envoys or {})}
        if not worker_side and on_cpu():
            refuse_unsupported_heads(hf_config, repo_id, cpu_head_sizes())
            size_kv_cache(hf_config, kwargs)
        if not worker_side:
            quiet_accelerator()
            kwargs["additional_config"] = {
                **(kwargs.get("additional_config") or {}),
                CONFIG_KEY: describe(family, rename, envoys),
            }
        with _plain_excepthook():
            super().__init__(repo_id, rename=merged_rename, envoys=merged_envoys, **kwargs)

    def _load(self, repo_id: str, **kwargs: Any) -> Any:
        with _plain_excepthook():
            return super()._load(repo_id, **kwargs)

    # The worker vLLM builds in each of its processes, chosen for this machine's platform.
    @property
    def _WORKER_CLS(self) -> str:  # noqa: N802 - nnsight's attribute name
        return worker_class()

    # -- methods measured on the transformers engine only ------------------------------

    def order(self, layer: int | None = None) -> dict[str, int]:
        """Not on this engine: the read order is measured on a `StandardizedTransformer`."""
        raise NotImplementedError(ORDER.format(name="order"))

    def rank(self, name: str, layer: int | None = None) -> tuple[str, int]:
        """Not on this engine: the read order is measured on a `StandardizedTransformer`."""
        raise NotImplementedError(ORDER.format(name="rank"))

    def project_on_vocab(self, hidden: Any) -> Any:
        """The logit lens inside a trace: the final norm, then the engine's logits processor over `lm_head`.

        `hidden` is ``[..., hidden_size]``; the result keeps its leading axes. The
        processor applies any scale and softcap the model has, and the family's
        `head_divisor` (a division vLLM's model makes between the final norm and the
        head) is applied first, so on the last block's stream at the last position
        this is `logits`.
        """
        own = getattr(self.family, "project_on_vocab", None)
        if callable(own):
            return own(self, hidden)
        if not self.interleaver.interleaving:
            raise ValueError("project_on_vocab calls the engine's modules: call it inside a trace on this engine")
        rows = hidden.reshape(-1, hidden.shape[-1])
        normed = self.norm._module(rows)
        if isinstance(normed, tuple):
            normed = normed[0]
        normed = normed / _head_divisor(self)
        # compute_logits is the model's own head: the logits processor over lm_head,
        # or over the embedding where the weights are tied.
        logits = self._module.compute_logits(normed)
        return logits.reshape(*hidden.shape[:-1], logits.shape[-1])

    def skip_layers(self, start: int, end: int, skip_with: Any = None) -> None:
        """Blocks `start` to `end` do not run; safe on a request that runs alone (the skip answers for every row)."""
        count = len(self.layers)
        start, end = layer_index(start, count, "start"), layer_index(end, count, "end")
        if start > end:
            raise ValueError(f"skip_layers({start}, {end}): start comes after end; pass them in ascending order")
        stream = self.layers[start].layer_input if skip_with is None else skip_with
        for index in range(start, end + 1):
            block = self.layers[index]
            block.skip(block.skip_with(stream))

    # -- root values ----------------------------------------------------------------

    @Flat("inputs", select="input_ids", description="The token ids of this step", read_only=True)
    def input_ids(self, rows) -> Tokens:
        return rows

    attention_mask = unavailable(NO_MASK)

    def _input_size(self):
        return self.input_ids.shape

    input_size = DerivedEProperty(_input_size, description="The shape of the token ids")

    @_RootFlat("embed_tokens.output", description="The embedding module's output, as block 0 receives it")
    def token_embeddings(self, rows) -> Residual:
        return rows * _embedding_scale(self)

    @token_embeddings.postprocess
    def token_embeddings(self, value):
        return value / _embedding_scale(self)

    @_RootFlat("norm.output", description="The final norm's output, what the head reads")
    def final_norm_output(self, rows) -> Residual:
        return rows

    lm_head_output = unavailable(LM_HEAD)

    @_Logits("logits", description="The logits of this step's last position, before sampling")
    def logits(self, rows) -> Logits:
        return rows

    def _next_token_probs(self) -> NextTokenProbs:
        return self.logits[:, -1].softmax(-1)

    next_token_probs = FromLogits(_next_token_probs, description="The softmax of the logits at the last position")


__all__ = ["StandardizedVLLM"]
