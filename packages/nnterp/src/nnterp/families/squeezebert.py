"""SqueezeBERT (`SqueezeBertForMaskedLM`, model type `squeezebert`): post-LN blocks of 1x1 convolutions, channels-first.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.layernorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `SqueezeBertForMaskedLM` by default, or bare
(`SqueezeBertModel`, `task="feature-extraction"`) for probing, and the same names
serve both (the trunk sits under `transformer` in the first and is the root in the
second). Every position attends to every other one; padding is masked.

The block is BERT's with every linear layer a grouped 1x1 convolution
(`nn.Conv1d`), so the encoder stack permutes the stream to channels-first,
`[batch, hidden, seq]`, before block 0 and back after the last block, and every
tensor inside a block is held that way: the block's input, the convolutions'
inputs and outputs, the norms' (a `SqueezeBertLayerNorm` permutes to norm the
channels and permutes back). Every value is served in the standard layout
(`[batch, seq, hidden]`, `[batch, seq, intermediate]`): a read transposes the
tensor the forward holds, which is a view of it, so an in-place edit of a value
lands in the model's tensor, and an assignment is transposed back before the
forward takes it. The attention and the block return dicts
(`{"context_layer": ...}`, `{"feature_map": ...}`); `layer_output` is the block's
`feature_map`, and an assigned or skipped block output is packed into the dict
the block returns.

The block calls its four modules itself: `attention` (aliased `self_attn`, the
heads), `post_attention` (the output projection `conv1d`, its dropout, the add and
`layernorm`, aliased `post_attention_layernorm`), `intermediate` (the up projection
and the activation) and `output` (the down projection, its dropout, the add and the
block's output norm). The feed-forward path has no module of its own, and `output`
is a name every nnsight envoy serves itself, so the trunk's envoy regroups every
block before the blocks are mirrored, on every load and dispatch:
`intermediate` and `output` go under one container, `mlp`, as `mlp.intermediate`
and `mlp.ffn_output`. The block's forward keeps calling both where it did (they
stay plain attributes under their old names), so every number is the model's
own; the registration moves, and with it the parameter names
(`...layers.0.mlp.ffn_output.conv1d.weight`), so a model saved from an nnterp load
no longer loads in transformers. The container is never called: its boundaries
are its children's (its input is `intermediate`'s, its output `ffn_output`'s).

The block is post-LN: `attention_output` is the output projection's term entering
the add (read beside the attention, in `post_attention`, since the projection is
not part of the attention module), `layer_mid == layer_input + attention_output`,
and `layer_output == mlp.ffn_output.layernorm(mlp_norm_output + mlp_output)`, bit
for bit; no norm feeds the attention and there is no final norm. The attention does
its own arithmetic with modules of its own: the product of the queries and the
keys (`matmul_qk`, the keys held transposed for it), the division by the head
width's square root, the additive mask, `softmax`, `dropout` and the product with
the values (`matmul_qkv`). `attention_premix` is what the output projection takes,
the heads merged channel by channel. The MLP's activation (`act_fn`) is also what
the down projection sums, so `mlp_neurons` is `mlp_activation`. The embedding
module sums the token, segment and position tables and norms the sum;
`token_embeddings` is the token table's output, in the standard layout since the
stack permutes after it. The head (`cls`, aliased `lm_head`) is a transform and
the projection onto the vocabulary, so the logit lens is `lm_head` alone on a
stream.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.squeezebert.modeling_squeezebert import (
    SqueezeBertEncoder,
    SqueezeBertModel,
    SqueezeBertModule,
    SqueezeBertSelfAttention,
)

from nnterp.components import (
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    NO_FINAL_NORM,
    Mlp,
    OwnAttention,
    PostLNLayer,
    lm_head_only,
    own_value,
    unavailable,
)
from nnterp.components.mapped import held, mapped_value
from nnterp.components.regrouped import Regrouping
from nnterp.components.standard import Plain

ENCODER = True

RENAME = {
    "transformer.embeddings.word_embeddings": "embed_tokens",
    "transformer.encoder.layers": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layers": "layers",
    "cls": "lm_head",
    "attention": "self_attn",
    "attention.query": "attention.q_proj",
    "attention.key": "attention.k_proj",
    "attention.value": "attention.v_proj",
    "post_attention.layernorm": "post_attention_layernorm",
    "mlp.intermediate.conv1d": "mlp.up_proj",
    "mlp.intermediate.act": "mlp.act_fn",
    "mlp.ffn_output.conv1d": "mlp.down_proj",
}

#: The block's output norm, as a path from the block: its output is the block's stream, `layer_output`.
_OUTPUT_NORM = "mlp.ffn_output.layernorm"

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


def _swap(host: Any, value: Any) -> Any:
    """`[batch, channels, seq]` <-> `[batch, seq, channels]`: a view either way, its own inverse."""
    return value.transpose(1, 2)


def _transposed(base: type, name: str, key: str, description: str | None = None) -> Any:
    """`base`'s value `name`, read at `key` where the forward holds it channels-first, served transposed."""
    return mapped_value(base, name, key, _swap, _swap, description=description)


class FeedForward(torch.nn.Module):
    """A block's feed-forward path under one container: `intermediate`, then `ffn_output` with the add and the norm.

    The block's forward calls the two modules itself; the container only registers them.
    """

    def __init__(self, intermediate: torch.nn.Module, ffn_output: torch.nn.Module) -> None:
        super().__init__()
        self.intermediate = intermediate
        self.ffn_output = ffn_output

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a SqueezeBERT feed-forward container is not called: the block calls its two modules")


def _regroup_block(block: torch.nn.Module) -> None:
    """Register the block's `intermediate` and `output` under `mlp`; both stay plain attributes. Idempotent."""
    if "mlp" in block._modules:
        return
    intermediate, output = block._modules.pop("intermediate"), block._modules.pop("output")
    block.mlp = FeedForward(intermediate, output)
    # The block's forward calls `self.intermediate` and `self.output`; the instance dict answers before torch's registry.
    object.__setattr__(block, "intermediate", intermediate)
    object.__setattr__(block, "output", output)


def _regroup_blocks(trunk: torch.nn.Module) -> None:
    """`_regroup_block` on every block under `trunk`: the encoder stack (`.layers`) or the model holding it."""
    stack = trunk if "layers" in trunk._modules else trunk.encoder
    for block in stack.layers:
        _regroup_block(block)


class Stack(Regrouping, Plain):
    """The envoy of the trunk and of its encoder stack: it regroups every block before anything beneath is mirrored.

    Both are mapped: `Plain` keeps only the renames that bind beneath a module, so the
    trunk must see the regrouped blocks before it keeps them (under the masked-LM
    head), and the stack regroups where the trunk is the root (a bare load).
    """

    regroup = staticmethod(_regroup_blocks)


def _feature_map(host: Any, value: Any) -> Any:
    return value["feature_map"].transpose(1, 2)


def _packed(host: Any, value: Any) -> Any:
    return {**held(host, "output"), "feature_map": value.transpose(1, 2)}


class Layer(PostLNLayer):
    """SqueezeBERT's block: it returns `{"feature_map": stream}`, the stream channels-first like every tensor inside."""

    def skip_with(self, stream: Any) -> Any:
        """`stream` packed as the block returns it: channels-first, under `feature_map`."""
        return {"feature_map": stream.transpose(1, 2)}

    layer_input = _transposed(PostLNLayer, "layer_input", "input")
    layer_mid = _transposed(PostLNLayer, "layer_mid", "post_attention_layernorm.input")
    mlp_norm_output = _transposed(PostLNLayer, "mlp_norm_output", "post_attention_layernorm.output")
    mlp_input = _transposed(
        PostLNLayer,
        "mlp_input",
        "mlp.intermediate.input",
        description="What the feed-forward path reads, the input of its first module (`intermediate`)",
    )
    layer_output = mapped_value(PostLNLayer, "layer_output", "output", _feature_map, _packed)


#: `[batch, heads * head_dim, seq]` as the output projection takes it <-> `[batch, seq, heads, head_dim]`.
def _split_heads(host: Any, value: Any) -> Any:
    return value.transpose(1, 2).unflatten(-1, (host.num_heads, -1))


def _merge_heads(host: Any, value: Any) -> Any:
    return value.flatten(-2).transpose(1, 2)


class Attention(OwnAttention):
    """SqueezeBERT's attention: its own arithmetic, each product and the softmax a module of its own."""

    @property
    def num_heads(self) -> int:
        return self._module.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.attention_head_size

    attention_queries = own_value("attention_queries", "matmul_qk.inputs", select=0)
    attention_keys = own_value("attention_keys", "matmul_qk.inputs", KEYS_TRANSPOSED, select=1)
    attention_values = own_value("attention_values", "matmul_qkv.inputs", select=1)
    attention_scores = own_value(
        "attention_scores",
        "softmax.input",
        description="The attention scores entering the softmax, divided by the head width's square root and masked",
    )
    attention_probabilities = own_value("attention_probabilities", "dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", "matmul_qkv.output", HEADS_FIRST)
    attention_premix = mapped_value(
        OwnAttention,
        "attention_premix",
        "../post_attention.conv1d.input",
        _split_heads,
        _merge_heads,
        description="Every head's output side by side, as the output projection (`post_attention.conv1d`) takes it",
    )
    attention_output = _transposed(
        OwnAttention,
        "attention_output",
        "../post_attention.dropout.output",
        description="What the attention adds to the residual stream, the output projection's term entering the add",
    )


class FeedForwardMlp(Mlp):
    """The regrouped feed-forward path: `up_proj`, `act_fn`, `down_proj`, then the add and the block's output norm.

    The container is never called, so its boundaries are its children's: its input
    is `intermediate`'s and its output `ffn_output`'s, both channels-first.
    """

    @property
    def inputs(self) -> Any:
        return self.intermediate.inputs

    @inputs.setter
    def inputs(self, value: Any) -> None:
        self.intermediate.inputs = value

    @property
    def input(self) -> Any:
        return self.intermediate.input

    @input.setter
    def input(self, value: Any) -> None:
        self.intermediate.input = value

    @property
    def output(self) -> Any:
        return self.ffn_output.output

    @output.setter
    def output(self, value: Any) -> None:
        self.ffn_output.output = value

    @property
    def intermediate_size(self) -> int:
        """The MLP width, the down projection's input channels."""
        return self.down_proj._module.in_channels

    mlp_output = _transposed(
        Mlp,
        "mlp_output",
        "ffn_output.dropout.output",
        description="What the MLP adds to the residual stream, the term its own add takes",
    )
    mlp_activation = _transposed(Mlp, "mlp_activation", "act_fn.output")
    mlp_neurons = _transposed(Mlp, "mlp_neurons", "down_proj.input")


ENVOYS = {
    SqueezeBertModel: Stack,
    SqueezeBertEncoder: Stack,
    SqueezeBertModule: Layer,
    SqueezeBertSelfAttention: Attention,
    FeedForward: FeedForwardMlp,
}
