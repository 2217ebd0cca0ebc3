"""ESM (`EsmForMaskedLM`, model type `esm`): a bidirectional pre-LN protein encoder under its masked-LM head.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `EsmForMaskedLM` by default, or bare
(`EsmModel`, `task="feature-extraction"`) for probing, and the same names serve both
(the trunk sits under `esm` in the first and is the root in the second). Every
position attends to every other one; padding is masked.

ESM's block is BERT's laid out pre-LN: the attention module norms its input itself
(`attention.LayerNorm`, aliased `input_layernorm`), runs the heads in `self` and
projects and adds the residual in `output`; the block norms the stream after that add
(`LayerNorm`, aliased `post_attention_layernorm`) and calls `intermediate` (the up
projection and GELU, a function) and `output` (the down projection and the second
add) from `feed_forward_chunk`. The two modules named `output` are regrouped at load
as BERT's are (`nnterp.components.bert_block`): the attention's moves to
`self_attn.self_output`, and `intermediate` and the block's `output` go under one
container, `mlp` (`mlp.intermediate`, `mlp.ffn_output`), which the block's
`feed_forward_chunk` calls with the normed stream and the stream it adds to. Every
number is the model's own; the parameter names move with the registrations.

`attention_output` and `mlp_output` are the terms entering the two adds (each
projection's dropout), so `layer_input + attention_output + mlp_output ==
layer_output` bit for bit. ESM scales the queries by the head width's inverse square
root before the rotary embedding and runs the attention with a scaling of one, so
`attention_queries` are the scaled, rotated queries. With `token_dropout` the
embedding module zeroes the mask tokens' rows and rescales the others by the share of
masked tokens; `token_embeddings` is the table's output before that, and block 0
reads the rescaled rows. The trunk norms the last block's output
(`encoder.emb_layer_norm_after`, aliased `norm`); the head (`lm_head`) is a transform
(a dense layer, GELU, a LayerNorm), the projection onto the vocabulary (`decoder`) and
a bias added after it, so the logit lens is the final norm then `lm_head`, and
`lm_head_output` is the head's output, the logits.
"""

from __future__ import annotations

import torch
from transformers.models.esm.modeling_esm import EsmAttention, EsmEncoder, EsmLayer, EsmModel

from nnterp.components import EProperty, Layer, Mlp, Neurons, Regrouping
from nnterp.components.bert_block import BertAttention
from nnterp.components.layer import Residual
from nnterp.components.standard import Plain

ENCODER = True

RENAME = {
    "esm.embeddings.word_embeddings": "embed_tokens",
    "esm.encoder.layer": "layers",
    "esm.encoder.emb_layer_norm_after": "norm",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "encoder.emb_layer_norm_after": "norm",
    "attention": "self_attn",
    "attention.LayerNorm": "input_layernorm",
    "LayerNorm": "post_attention_layernorm",
    "attention.self_output.dense": "attention.o_proj",
    "attention.self.query": "attention.self.q_proj",
    "attention.self.key": "attention.self.k_proj",
    "attention.self.value": "attention.self.v_proj",
    "mlp.intermediate.dense": "mlp.up_proj",
    "mlp.ffn_output.dense": "mlp.down_proj",
}


class EsmFeedForward(torch.nn.Module):
    """An ESM block's feed-forward path as one module: `intermediate` on the normed stream, then `ffn_output`'s add.

    It computes what the block's `feed_forward_chunk` computes after its norm, with the
    same two modules; the block calls it in that method's place.
    """

    def __init__(self, intermediate: torch.nn.Module, ffn_output: torch.nn.Module) -> None:
        super().__init__()
        self.intermediate = intermediate
        self.ffn_output = ffn_output

    def forward(self, normed: torch.Tensor, stream: torch.Tensor) -> torch.Tensor:
        return self.ffn_output(self.intermediate(normed), stream)


def _regroup_block(block: torch.nn.Module) -> None:
    """Move the block's two `output` modules off that name: `attention.self_output`, and `mlp` for the feed-forward path.

    Idempotent: a block already regrouped is left as it is.
    """
    attention = block.attention
    if "output" in attention._modules:
        self_output = attention._modules.pop("output")
        attention.self_output = self_output
        # The attention's forward calls `self.output`; the instance dict answers before torch's registry.
        object.__setattr__(attention, "output", self_output)
    if "mlp" not in block._modules:
        mlp = EsmFeedForward(block._modules.pop("intermediate"), block._modules.pop("output"))
        block.mlp = mlp
        norm = block.LayerNorm

        def feed_forward_chunk(attention_output: torch.Tensor) -> torch.Tensor:
            return mlp(norm(attention_output), attention_output)

        object.__setattr__(block, "feed_forward_chunk", feed_forward_chunk)


def _regroup_blocks(trunk: torch.nn.Module) -> None:
    """`_regroup_block` on every block under `trunk`: the encoder stack (`.layer`) or the model holding it (`.encoder`)."""
    stack = trunk if "layer" in trunk._modules else trunk.encoder
    for block in stack.layer:
        _regroup_block(block)


class EsmStack(Regrouping, Plain):
    """The envoy of the trunk and of its encoder stack: it regroups every block before anything beneath is mirrored."""

    regroup = staticmethod(_regroup_blocks)


class EsmMlp(Mlp):
    """An ESM feed-forward path: `up_proj`, GELU (a function), `down_proj`, then the add."""

    @EProperty("ffn_output.dropout.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, value) -> Residual:
        return value

    @EProperty("intermediate.output", description="The activation function's output: GELU of the up projection")
    def mlp_activation(self, value) -> Neurons:
        return value


ENVOYS = {
    EsmModel: EsmStack,
    EsmEncoder: EsmStack,
    EsmLayer: Layer,
    EsmAttention: BertAttention,
    EsmFeedForward: EsmMlp,
}
