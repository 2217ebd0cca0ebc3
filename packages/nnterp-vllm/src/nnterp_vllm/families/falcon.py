"""Falcon on vLLM (``vllm.model_executor.models.falcon``).

out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x)) with ``parallel_attn`` (one norm), or
h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)) without it, with Falcon's names
(``self_attention``, ``dense``, ``dense_h_to_4h``/``dense_4h_to_h``, ``word_embeddings``, ``ln_f``) renamed. The
block is called ``forward(positions, hidden_states)`` and returns the stream. Both sublayers return
``(output, bias)`` with the output projection's bias left out, and the block adds the bias: the contributions are
``output + bias``, and a write is handed back without the bias, which the block adds again. On a parallel block
the MLP's output tensor is then summed into in place, so it is read (copied) before that. The MLP is plain, 4 *
``hidden_size`` wide whatever ``ffn_hidden_size`` says; the new decoder architecture (``ln_attn``/``ln_mlp``) is
not mapped here.
"""

from typing import Any

import torch
from vllm.model_executor.models.falcon import FalconAttention, FalconDecoderLayer, FalconMLP

from nnterp.components import PARALLEL, Residual, needs_child
from nnterp_vllm import components as base

RENAME = {
    "transformer.word_embeddings": "embed_tokens",
    "transformer.h": "layers",
    "transformer.ln_f": "norm",
    "self_attention": "self_attn",
    "self_attention.dense": "self_attention.o_proj",
    "dense_4h_to_h": "down_proj",
    "act": "act_fn",
}


class _Biased(base.Flat):
    """A sublayer's ``(output, bias)``: served as their sum, handed back as ``(rows - bias, bias)``."""

    def take(self, obj: Any, raw: Any, attribute: str, select: Any) -> torch.Tensor:
        output, bias = raw
        return output if bias is None else output + bias

    def give(self, obj: Any, raw: Any, attribute: str, select: Any, rows: torch.Tensor) -> Any:
        _, bias = raw
        return (rows if bias is None else rows - bias, bias)


def _sequential(envoy) -> str | None:
    return PARALLEL if envoy._module.config.parallel_attn else needs_child("post_attention_layernorm")(envoy)


def _mlp_norm(envoy) -> str:
    return "input_layernorm.output" if envoy._module.config.parallel_attn else "post_attention_layernorm.output"


class Layer(base.Layer):
    """Falcon's block: ``forward(positions, hidden_states) -> hidden_states``, parallel where the config says."""

    STREAM = 1

    @base.Flat(
        "post_attention_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=_sequential,
    )
    def layer_mid(self, rows) -> Residual:
        return rows

    @base.Flat(_mlp_norm, description="The normed stream entering the MLP")
    def mlp_norm_output(self, rows) -> Residual:
        return rows


class Attention(base.Attention):
    """Falcon's attention; what the block adds is its output plus the output projection's bias."""

    @_Biased("output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


class Mlp(base.Mlp):
    """Falcon's plain MLP; what the block adds is its output plus ``dense_4h_to_h``'s bias."""

    @_Biased("output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {FalconDecoderLayer: Layer, FalconAttention: Attention, FalconMLP: Mlp}
