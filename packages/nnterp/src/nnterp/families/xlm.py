"""XLM (`XLMWithLMHeadModel`, model type `xlm`): post-LN blocks kept in four parallel lists, gathered into blocks at load.

`h = post_attention_layernorm(x + self_attn(x)); out = layer_norm2(h + mlp(h))`

XLM has no block module: its trunk holds `attentions`, `layer_norm1`, `ffns` and
`layer_norm2` as four parallel `ModuleList`s and its forward indexes each list in
turn. The family gives every block a module anyway, so that `layers[i]` is an
envoy like any family's: at load (and again when the real weights replace the meta
ones) the trunk's envoy moves the i-th module of each list under one container,
`transformer.layers[i]`, with the children `attention` (aliased `self_attn`),
`layer_norm1` (aliased `post_attention_layernorm`), `ffn` (aliased `mlp`) and
`layer_norm2`. The forward itself is untouched: the trunk still reaches the four
lists as plain attributes and calls the same modules in the same order, so every
number is the model's own; only the registration moves, and with it the parameter
names (`transformer.layers.0.attention.q_lin.weight`), so a model saved from an
nnterp load no longer loads in transformers.

A container is never called, so the block's boundaries are its children's: the
block's input is the attention's input, its output is `layer_norm2`'s output, and
skipping the block skips the four modules, the attention and the MLP returning
zeros and both norms returning the replacement (adding zeros leaves a stream
unchanged bit for bit). After `layer_norm2` the trunk multiplies the stream in
place by the padding mask, on the same tensor, so a padded position of
`layer_output` reads zero once the block has run.

The block is post-LN: `layer_mid == layer_input + attention_output` and
`layer_output == layer_norm2(mlp_norm_output + mlp_output)`, bit for bit; no norm
feeds the attention and there is no final norm, so the head (`pred_layer.proj`,
aliased `lm_head`) reads the last `layer_output`. The attention does its own
arithmetic: the queries are divided by the head width's square root before the
product, the keys and values are read where the two products take them,
after the cache update (the trunk builds a fresh cache on every call), the keys
transposed for the product, masked scores are filled with the dtype's minimum in
place and cast to float32 before the softmax. The MLP's activation is read where
the down projection takes it, which is also the neuron vector: under
`gelu_activation` the activation is one GELU module instance that every block's
MLP shares, so its own output names no single block (under ReLU it is a bare
function). Generation passes the whole sequence
at every step with the mask token appended (`RESENDS_IDS`: the attention mask a
step takes is as long as its ids); where the release hands the model its cache
(as `cache`, 5.24), the trunk runs only the ids past the cache, else the whole
sequence again.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.xlm.modeling_xlm import MultiHeadAttention, TransformerFFN, XLMModel

from nnterp.components import (
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    MERGED_HEADS,
    NO_FINAL_NORM,
    EProperty,
    Mlp,
    Neurons,
    OwnAttention,
    PostLNLayer,
    Residual,
    always,
    lm_head_only,
    own_value,
    unavailable,
)
from nnterp.components.regrouped import Regrouping
from nnterp.components.standard import Plain

RENAME = {
    "transformer.embeddings": "embed_tokens",
    "transformer.layers": "layers",
    "pred_layer.proj": "lm_head",
    "attention": "self_attn",
    "layer_norm1": "post_attention_layernorm",
    "ffn": "mlp",
    "q_lin": "q_proj",
    "k_lin": "k_proj",
    "v_lin": "v_proj",
    "out_lin": "o_proj",
    "lin1": "up_proj",
    "lin2": "down_proj",
}

#: The trunk's parallel lists, in the order the forward calls them, and each one's name in a block.
_PARALLEL_LISTS = (
    ("attentions", "attention"),
    ("layer_norm1", "layer_norm1"),
    ("ffns", "ffn"),
    ("layer_norm2", "layer_norm2"),
)

#: Generation passes every id at every step (and the mask token after them); the trunk slices off what its
#: cache holds itself, so the mask a step takes is as long as its ids.
RESENDS_IDS = True

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


class XLMBlock(torch.nn.Module):
    """One block's four modules under one container; the trunk's forward calls them, never the container."""

    def __init__(self, attention, layer_norm1, ffn, layer_norm2) -> None:
        super().__init__()
        self.attention = attention
        self.layer_norm1 = layer_norm1
        self.ffn = ffn
        self.layer_norm2 = layer_norm2

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("an XLM block container is not called: the trunk's forward calls its four modules")


def _gather_blocks(trunk: torch.nn.Module) -> None:
    """Register the i-th module of each parallel list under `trunk.layers[i]`; the lists stay plain attributes."""
    if "layers" in trunk._modules:
        return
    lists = [trunk._modules.pop(name) for name, _ in _PARALLEL_LISTS]
    for (name, _), modules in zip(_PARALLEL_LISTS, lists):
        # The forward reaches the lists by attribute; the instance dict answers before torch's registry.
        object.__setattr__(trunk, name, modules)
    trunk.layers = torch.nn.ModuleList(XLMBlock(*modules) for modules in zip(*lists))


class Trunk(Regrouping, Plain):
    """`XLMModel`'s envoy: it gathers the blocks before its children are mirrored, on every load and dispatch."""

    regroup = staticmethod(_gather_blocks)


class Layer(PostLNLayer):
    """XLM's gathered block: its boundaries are its first and last modules', and skipping it skips all four."""

    @property
    def inputs(self) -> Any:
        return self.self_attn.inputs

    @inputs.setter
    def inputs(self, value: Any) -> None:
        self.self_attn.inputs = value

    @property
    def input(self) -> Any:
        return self.self_attn.input

    @input.setter
    def input(self, value: Any) -> None:
        self.self_attn.input = value

    @property
    def output(self) -> Any:
        return self.layer_norm2.output

    @output.setter
    def output(self, value: Any) -> None:
        self.layer_norm2.output = value

    def skip(self, replacement: Any) -> None:
        """Hand `replacement` on as the block's output: the sublayers add zeros and both norms return it."""
        zeros = torch.zeros_like(replacement)
        self.self_attn.skip((zeros,))
        self.post_attention_layernorm.skip(replacement)
        self.mlp.skip(zeros)
        self.layer_norm2.skip(replacement)

    @EProperty("self_attn.input", description="The residual stream entering the block")
    def layer_input(self, value) -> Residual:
        return value

    @EProperty("layer_norm2.output", description="The residual stream leaving the block, the second norm's output")
    def layer_output(self, value) -> Residual:
        return value


class Attention(OwnAttention):
    """XLM's attention, read at the operations of its own forward."""

    attention_queries = own_value(
        "attention_queries",
        "source.transpose_0.output",
        description="The queries entering attention, before the division by the head width's square root",
    )
    attention_keys = own_value("attention_keys", "source.torch_matmul_0.inputs", KEYS_TRANSPOSED, select=1)
    attention_values = own_value("attention_values", "source.torch_matmul_1.inputs", select=1)
    attention_scores = own_value(
        "attention_scores",
        "source.nn_functional_softmax_0.input",
        description="The attention scores entering the softmax, masked with the dtype's minimum, in float32",
    )
    attention_probabilities = own_value("attention_probabilities", "source.nn_functional_dropout_0.output")
    attention_head_outputs = own_value("attention_head_outputs", "source.torch_matmul_1.output", HEADS_FIRST)
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)


class Mlp(Mlp):
    """XLM's plain MLP: `lin1`, the activation, `lin2`, read where the down projection takes the activation."""

    @EProperty(
        "down_proj.input",
        description="The activation function's output, as the down projection reads it",
        unavailable=always,
    )
    def mlp_activation(self, value) -> Neurons:
        return value


def intermediate_size(model) -> int:
    """The MLP width: four times the hidden size, which the config does not hold."""
    return 4 * model.hidden_size


ENVOYS = {XLMModel: Trunk, XLMBlock: Layer, MultiHeadAttention: Attention, TransformerFFN: Mlp}
