"""ALBERT (`AlbertForMaskedLM`, model type `albert`): a post-LN encoder whose blocks share their weights.

`h = post_attention_layernorm(x + self_attn(x)); out = full_layer_layer_norm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `AlbertForMaskedLM` by default, or bare
(`AlbertModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `albert` in the first and is the root in the second).
Every position attends to every other one; padding is masked.

ALBERT runs `num_hidden_layers` blocks with few weights: its stack holds
`num_hidden_groups` groups (one in every released checkpoint) of
`inner_group_num` blocks (one), and block application `i` runs group
`i * num_hidden_groups // num_hidden_layers`. So one module runs many times in a
forward. The family gives every application its own entry: at load (and again when
the real weights replace the meta ones) the stack's envoy registers
`layers`, one module per application in forward order, `num_hidden_layers *
inner_group_num` of them, and the stack's forward runs that list in order instead
of the groups. The first application of a shared block is the block itself; each
later one is a copy of its modules that holds the same parameter tensors (not
copies of them), so every number is the model's own, and `layers[i]` reads,
edits, steers and skips application `i` alone, as on any model. A weight is one
tensor under every application that runs it: an edit of
`layers[3].mlp.up_proj.weight` changes every application of that block. The
parameters register once, under the first application's names
(`albert.encoder.layers.0.attention.query.weight`), so a model saved from an nnterp
load no longer loads in transformers.

A block's attention does the add and the norm itself: it projects the heads
(`dense`, aliased `o_proj`), adds its input and norms the sum (`LayerNorm`, aliased
`post_attention_layernorm`), and returns the normed stream, so `attention_output`
is the term before the add (the output dropout's output), `layer_mid` the sum the
norm reads and `mlp_norm_output` the normed stream. The feed-forward path (`ffn`,
the activation, `ffn_output`) is three modules on the block that its
`ff_chunk` method calls; the family moves them under one container, `mlp` (`ffn`
aliased `up_proj`, `ffn_output` aliased `down_proj`, `activation` aliased
`act_fn`), which the block calls in that method's place, and its output is the term
its add takes. The block is post-LN (`PostLNLayer`): `layer_mid == layer_input +
attention_output` and `layer_output == full_layer_layer_norm(mlp_norm_output +
mlp_output)`, bit for bit.

The embeddings are factorized: the token, segment and position tables are
`embedding_size` wide, summed and normed at that width, and the stack's
`embedding_hidden_mapping_in` projects the sum to `hidden_size` before block 0, so
`token_embeddings` (the token table's output) is `embedding_size` wide and block 0
reads the projection. The head (`predictions`, aliased `lm_head`) is a transform
(`dense`, the activation, a LayerNorm) and the projection onto the vocabulary
(`decoder`), so the logit lens is `lm_head` alone on a stream; there is no final
norm.
"""

from __future__ import annotations

import copy
from typing import Any

import torch
from transformers.modeling_outputs import BaseModelOutput
from transformers.models.albert.modeling_albert import AlbertAttention, AlbertLayer, AlbertModel, AlbertTransformer

from nnterp.components import NO_FINAL_NORM, Attention, EProperty, Mlp, PostLNLayer, Residual, lm_head_only, unavailable
from nnterp.components.regrouped import Regrouping
from nnterp.components.standard import Plain

ENCODER = True

RENAME = {
    "albert.embeddings.word_embeddings": "embed_tokens",
    "albert.encoder.layers": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layers": "layers",
    "predictions": "lm_head",
    "attention": "self_attn",
    "attention.LayerNorm": "post_attention_layernorm",
    "attention.query": "attention.q_proj",
    "attention.key": "attention.k_proj",
    "attention.value": "attention.v_proj",
    "attention.dense": "attention.o_proj",
    "mlp.ffn": "mlp.up_proj",
    "mlp.activation": "mlp.act_fn",
    "mlp.ffn_output": "mlp.down_proj",
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


def _factorized(model: Any) -> str | None:
    """Why `token_embeddings` is missing: the token table is narrower than the stream."""
    config = model.config
    if config.embedding_size == config.hidden_size:
        return None
    return (
        f"ALBERT's embeddings are factorized: the token table is embedding_size={config.embedding_size} wide, not "
        f"hidden_size={config.hidden_size}, and the stream starts at embedding_hidden_mapping_in's projection of "
        "the normed sum of three tables; read embed_tokens.output for the table's output, layers[0].layer_input "
        "for the stream"
    )


#: The token table's output, where it is as wide as the stream.
token_embeddings = EProperty(
    "embed_tokens.output", description="The embedding module's output", unavailable=_factorized
)


#: The block's feed-forward modules, in the order `ff_chunk` calls them.
_FEED_FORWARD = ("ffn", "activation", "ffn_output")


class FeedForward(torch.nn.Module):
    """An ALBERT block's feed-forward path as one module: `ffn`, the activation, `ffn_output`, as `ff_chunk` runs them."""

    def __init__(self, ffn: torch.nn.Module, activation: torch.nn.Module, ffn_output: torch.nn.Module) -> None:
        super().__init__()
        self.ffn = ffn
        self.activation = activation
        self.ffn_output = ffn_output

    def forward(self, attention_output: torch.Tensor) -> torch.Tensor:
        return self.ffn_output(self.activation(self.ffn(attention_output)))


class UnrolledStack(AlbertTransformer):
    """ALBERT's stack once its applications are registered: the input projection, then `layers` in order."""

    def forward(
        self, hidden_states: torch.Tensor, attention_mask: torch.Tensor | None = None, **kwargs: Any
    ) -> BaseModelOutput:
        hidden_states = self.embedding_hidden_mapping_in(hidden_states)
        for layer in self.layers:
            hidden_states = layer(hidden_states, attention_mask, **kwargs)
        return BaseModelOutput(last_hidden_state=hidden_states)


def _group_mlp(block: torch.nn.Module) -> None:
    """Move the block's feed-forward modules under `mlp`, and make its `ff_chunk` a call of that container.

    The binding is redone on every call, since a copied block must call its own container.
    """
    if "mlp" not in block._modules:
        block.mlp = FeedForward(*(block._modules.pop(name) for name in _FEED_FORWARD))
    mlp = block.mlp
    # The forward reaches the modules by their old names; the instance dict answers before torch's registry.
    for name in _FEED_FORWARD:
        object.__setattr__(block, name, getattr(mlp, name))

    def ff_chunk(attention_output: torch.Tensor) -> torch.Tensor:
        return mlp(attention_output)

    # `apply_chunking_to_forward` counts the chunk's parameters, so the call goes through a one-argument function.
    object.__setattr__(block, "ff_chunk", ff_chunk)


def _application(block: torch.nn.Module) -> torch.nn.Module:
    """A copy of `block`'s modules that holds the same parameters, buffers and config: a later run of the block."""
    memo: dict[int, Any] = {id(tensor): tensor for tensor in (*block.parameters(), *block.buffers())}
    for module in block.modules():
        config = getattr(module, "config", None)
        if config is not None:
            memo[id(config)] = config
    clone = copy.deepcopy(block, memo)
    _group_mlp(clone)
    return clone


def _unroll(trunk: torch.nn.Module) -> None:
    """Register one module per block application under the stack's `layers`, and run the stack through them."""
    stack = trunk if isinstance(trunk, AlbertTransformer) else trunk.encoder
    if "layers" in stack._modules:
        return
    groups = stack._modules.pop("albert_layer_groups")
    object.__setattr__(stack, "albert_layer_groups", groups)
    config = stack.config
    applications, seen = [], set()
    for index in range(config.num_hidden_layers):
        group = groups[int(index / (config.num_hidden_layers / config.num_hidden_groups))]
        for block in group.albert_layers:
            _group_mlp(block)
            applications.append(block if id(block) not in seen else _application(block))
            seen.add(id(block))
    stack.layers = torch.nn.ModuleList(applications)
    stack.__class__ = UnrolledStack


class Stack(Regrouping, Plain):
    """The envoy of the trunk and of its stack: it registers the block applications before anything beneath is mirrored.

    Both are mapped, as on BERT: under the masked-LM head the trunk must see `layers`
    before it keeps the renames beneath it, and on a bare load the trunk is the root.
    """

    regroup = staticmethod(_unroll)


class AlbertAttentionEnvoy(Attention):
    """ALBERT's attention: the heads through the attention interface, `o_proj`, the dropout, then the add and the norm."""

    @property
    def num_heads(self) -> int:
        return self._module.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.attention_head_size

    @EProperty(
        "output_dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )
    def attention_output(self, value) -> Residual:
        return value


ENVOYS = {
    AlbertModel: Stack,
    AlbertTransformer: Stack,
    AlbertLayer: PostLNLayer,
    AlbertAttention: AlbertAttentionEnvoy,
    FeedForward: Mlp,
}
