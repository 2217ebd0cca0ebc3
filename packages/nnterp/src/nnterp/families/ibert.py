"""I-BERT (`IBertForMaskedLM`, model type `ibert`): RoBERTa's post-LN encoder built of quantizable modules.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `IBertForMaskedLM` by default, or bare
(`IBertModel`, `task="feature-extraction"`), and the same names serve both (the
trunk sits under `ibert` in the first and is the root in the second). Every position
attends to every other one; padding is masked, and positions count from
`pad_token_id + 1` as RoBERTa's do.

Every module of the trunk is a quantizable one (`QuantEmbedding`, `QuantLinear`,
`IntGELU`, `IntSoftmax`, `IntLayerNorm`, `QuantAct`) and returns a pair, the tensor
and its scaling factor, quantization on or off, and the block's sublayers pass the
pair along. With `quant_mode` off, as a checkpoint is saved unless it was
quantized, each of them computes its float module's result and returns `None` for
the factor, and every `QuantAct` (the requantizing steps between the modules, and
the adds, which it takes as `identity`) returns its input, or the sum, unchanged.
So the values are served as on RoBERTa, each read at the tensor of its pair:
`token_embeddings` is the first element of the token table's output (`embed_tokens`,
whose output and call are the pair), `mlp_norm_output` the first element of the
attention norm's output, and `mlp_activation` the first element of `IntGELU`'s.

The blocks are regrouped at load (`IBertStack`): the attention's output module moves
to `attention.self_output`, as on BERT (`nnterp.components.bert_block`), and the
feed-forward path, which the block runs from its two-argument `feed_forward_chunk`
(the requantizing `pre_intermediate_act`, `intermediate`, `pre_output_act`, then
`output` with the add and the block's output norm), goes under one container,
`mlp` (`FeedForward`), as `mlp.pre_intermediate_act`, `mlp.intermediate`,
`mlp.pre_output_act` and `mlp.ffn_output`, called with the same pair in the same
order: every number is the model's own. The block is post-LN with no norm before
the attention and no final norm; `attention_output` and `mlp_output` are each output
projection's dropout, the terms entering the adds, and the attention's interior is
read at the operations of its inner `self` module's own forward (`Attention`), the
scores where `IntSoftmax` takes them. The head (`lm_head`, a float module) is a transform (a
dense layer, GELU, a LayerNorm) then the projection onto the vocabulary
(`lm_head.decoder`), so the logit lens is `lm_head` alone on a stream, and the last
`layer_output` through it is the logits.

With `quant_mode` on, the modules compute on integers: the linear layers and the
embeddings on 8-bit weights, the softmax, GELU and LayerNorm by integer
approximations, and each `QuantAct` rounds its input, or the sum it takes, onto its
grid. The values still sit where they are served, but the identities hold only up
to that rounding, and the MLP no longer reads the attention norm's output: the
attention's output module and `pre_intermediate_act` requantize it first, so
`mlp_norm_output` is unavailable there. A written value keeps the scaling factor
the pair carried, which the next integer module divides by.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.ibert.modeling_ibert import IBertAttention, IBertEncoder, IBertLayer, IBertModel

from nnterp.components import (
    NO_FINAL_NORM,
    EProperty,
    Neurons,
    PostLNLayer,
    Regrouping,
    Residual,
    lm_head_only,
    own_value,
    unavailable,
)
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertOwnAttention, regroup_attention
from nnterp.components.standard import Plain

__all__ = ["ENCODER", "RENAME", "final_norm_output", "project_on_vocab", "token_embeddings"]

ENCODER = True

RENAME = {
    "ibert.embeddings.word_embeddings": "embed_tokens",
    "ibert.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    **BERT_BLOCK_RENAME,
}

_QUANTIZED_MLP_INPUT = (
    "quant_mode=True: the MLP reads the attention norm's output requantized twice (by the attention's "
    "self_output.output_activation and mlp.pre_intermediate_act), not the norm's output; read mlp_input for what "
    "the MLP is called with, or load a checkpoint with quant_mode=False"
)

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


@EProperty("embed_tokens.output", select=0, description="The embedding module's output")
def token_embeddings(self, value) -> Residual:
    return value


class FeedForward(torch.nn.Module):
    """An I-BERT block's feed-forward path as one module, called with the stream and its scaling factor.

    It computes what the block's `feed_forward_chunk` computes, with the same four
    modules in the same order, and returns the same pair: the block's output and
    its scaling factor.
    """

    def __init__(
        self,
        pre_intermediate_act: torch.nn.Module,
        intermediate: torch.nn.Module,
        pre_output_act: torch.nn.Module,
        ffn_output: torch.nn.Module,
    ) -> None:
        super().__init__()
        self.pre_intermediate_act = pre_intermediate_act
        self.intermediate = intermediate
        self.pre_output_act = pre_output_act
        self.ffn_output = ffn_output

    def forward(self, attention_output: torch.Tensor, scaling_factor: torch.Tensor | None) -> tuple:
        attention_output, scaling_factor = self.pre_intermediate_act(attention_output, scaling_factor)
        hidden, hidden_scale = self.intermediate(attention_output, scaling_factor)
        hidden, hidden_scale = self.pre_output_act(hidden, hidden_scale)
        return self.ffn_output(hidden, hidden_scale, attention_output, scaling_factor)


def _regroup_block(block: torch.nn.Module) -> None:
    """Move the attention's output module to `attention.self_output` and the feed-forward path under `mlp`.

    Idempotent: a block already regrouped is left as it is.
    """
    regroup_attention(block.attention)
    if "mlp" not in block._modules:
        modules = block._modules
        block.mlp = mlp = FeedForward(
            modules.pop("pre_intermediate_act"),
            modules.pop("intermediate"),
            modules.pop("pre_output_act"),
            modules.pop("output"),
        )
        # The block's forward calls `self.feed_forward_chunk(attention_output, scaling_factor)`.
        object.__setattr__(block, "feed_forward_chunk", mlp)


def _regroup_blocks(trunk: torch.nn.Module) -> None:
    """`_regroup_block` on every block under `trunk`: the encoder stack (`.layer`) or the model holding it (`.encoder`)."""
    stack = trunk if "layer" in trunk._modules else trunk.encoder
    for block in stack.layer:
        _regroup_block(block)


class IBertStack(Regrouping, Plain):
    """The envoy of the trunk and of its encoder stack: it regroups every block before anything beneath is mirrored."""

    regroup = staticmethod(_regroup_blocks)


def _quantized_mlp_input(layer: Any) -> str | None:
    return _QUANTIZED_MLP_INPUT if layer._module.quant_mode else None


class Layer(PostLNLayer):
    """I-BERT's regrouped post-LN block: it returns `(hidden_states,)`, and its norms return pairs."""

    returns_tuple = True

    @EProperty(
        "post_attention_layernorm.output",
        select=0,
        description="The normed stream entering the MLP",
        unavailable=_quantized_mlp_input,
    )
    def mlp_norm_output(self, value) -> Residual:
        return value


class Mlp(BertMlp):
    """I-BERT's feed-forward path: `up_proj`, `IntGELU` (a pair), `down_proj`, then the add and the output norm."""

    @EProperty("act_fn.output", select=0, description="The activation function's output")
    def mlp_activation(self, value) -> Neurons:
        return value


class Attention(BertOwnAttention):
    """I-BERT's attention: BERT's own arithmetic, the scores normalized by the `IntSoftmax` module."""

    attention_scores = own_value("attention_scores", "self.source.self_softmax_0.input")


ENVOYS = {
    IBertModel: IBertStack,
    IBertEncoder: IBertStack,
    IBertLayer: Layer,
    IBertAttention: Attention,
    FeedForward: Mlp,
}
