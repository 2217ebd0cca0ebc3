"""CPM-Ant (`CpmAntForCausalLM`, model type `cpmant`): pre-norm blocks behind a prompt segment the trunk prepends.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

Each block holds two wrappers that norm, run their sublayer and add the residual
inside: `self_att` (aliased `self_attn`; its `layernorm_before_attention` is the
block's `input_layernorm`, its `self_attention` the attention proper) and `ffn`
(aliased `mlp`; its `layernorm_before_ffn` is `post_attention_layernorm`, its inner
`ffn` the gated MLP: GELU of `w_0` times `w_1` (aliased `up_proj` on the wrapper),
then `w_out` (aliased `down_proj`)). So the attention
and the MLP, as the block calls them, read the stream itself, and the contributions
are read where each wrapper's add takes them (the inner modules' outputs). The
norms are RMS norms; a final RMS norm (`encoder.output_layernorm`, aliased `norm`)
precedes the head.

The prompt segment: the trunk puts `prompt_length` prompt ids ahead of the user's
ids, with a segment of their own, so every block runs `prompt_length + n`
positions, and the trunk drops the prompt positions after the final norm. Every
value whose sequence axis is the stream's serves the user's positions only: a read
is the view past the prompt (so an in-place edit lands in the model's tensor), an
assignment has the user's length and is written past the prompt, which keeps its
positions. The key axis of the keys, the values, the scores and the pattern keeps
the prompt positions first, since every user position attends to them: there it
is `prompt_length + n` long, the user's positions last. On a decode step with a
cache the trunk runs the new position only, with no prompt positions, and the
values serve it whole.

The attention is bidirectional: the trunk marks every position as context, so in a
forward every position attends to every other (the prompt, earlier and later
tokens); only a cached decode step is causal by construction. It does its own
arithmetic: scores are the product over the head width's square root plus a
bucketed relative position bias, masked with minus infinity and normalized by a
`Softmax` module, after which masked weights are set to zero. Generation passes
every id at every step and the trunk slices off what its cache holds
(`RESENDS_IDS`); the attention mask argument is a placeholder the model ignores,
padding is read off id 0.
"""

from __future__ import annotations

from typing import Any

from transformers.models.cpmant.modeling_cpmant import (
    CpmAntFFNBlock,
    CpmAntSelfAttentionBlock,
    CpmAntTransformerBlock,
)

from nnterp.components import (
    AS_IS,
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    MERGED_HEADS,
    EProperty,
    Layer,
    Mlp,
    OwnAttention,
    always,
    first_tensor,
    own_value,
)
from nnterp.components.mapped import held, mapped_value
from nnterp.components.own_attention import Shape
from nnterp.standardized import StandardizedTransformer

RENAME = {
    "cpmant.input_embedding": "embed_tokens",
    "cpmant.encoder.layers": "layers",
    "cpmant.encoder.output_layernorm": "norm",
    "self_att": "self_attn",
    "self_att.layernorm_before_attention": "input_layernorm",
    "ffn.layernorm_before_ffn": "post_attention_layernorm",
    "ffn": "mlp",
    "project_q": "q_proj",
    "project_k": "k_proj",
    "project_v": "v_proj",
    "attention_out": "o_proj",
    "ffn.w_out": "down_proj",
    "ffn.w_in.w_1": "up_proj",
    "ffn.w_in.act": "act_fn",
}

#: Generation passes every id at every step; the trunk slices off what its cache holds.
RESENDS_IDS = True


def _prompt_length(envoy: Any) -> int:
    """The prompt positions the trunk puts ahead of the user's tokens."""
    return envoy.root._module.config.prompt_length


def _past_prompt(value: Any, axis: int, prompt: int, always_prompt: bool) -> tuple:
    """The index that selects the user's positions on `axis`: past the prompt, where the tensor holds it."""
    index = [slice(None)] * value.dim()
    if always_prompt or value.shape[axis] > prompt:
        index[axis] = slice(prompt, None)
    return tuple(index)


def _user_tokens(
    base: type,
    name: str,
    key: str,
    axis: int = 1,
    shape: Shape = AS_IS,
    select: Any = None,
    unavailable: Any = None,
    description: str | None = None,
    packed: bool = False,
    always_prompt: bool = False,
) -> EProperty:
    """`base`'s value `name` at `key`, its sequence `axis` narrowed to the user's positions, then mapped by `shape`.

    The prompt positions are dropped where the tensor holds them: always for
    `always_prompt` (the embedding of every id), else where the axis is longer than
    the prompt (a full run, not a cached decode step). A write fills the user's
    positions of a copy of the current tensor.
    """
    read, write = shape

    def read_users(host, value):
        value = first_tensor(value) if packed else value
        return read(host, value[_past_prompt(value, axis, _prompt_length(host), always_prompt)])

    def write_users(host, value):
        raw = held(host, key, select)
        current = first_tensor(raw) if packed else raw
        full = current.clone()
        full[_past_prompt(current, axis, _prompt_length(host), always_prompt)] = write(host, value)
        return (full, *raw[1:]) if packed else full

    return mapped_value(base, name, key, read_users, write_users, select, unavailable, description)


token_embeddings = _user_tokens(
    StandardizedTransformer,
    "token_embeddings",
    "embed_tokens.output",
    always_prompt=True,
    description="The embedding module's output at the user's ids, past the prompt ids the trunk prepends",
)
final_norm_output = _user_tokens(StandardizedTransformer, "final_norm_output", "norm.output")


class Layer(Layer):
    """CPM-Ant's block: two wrappers that norm, run and add; it returns `(hidden_states, attn_weights)`."""

    returns_tuple = True

    def skip_with(self, stream: Any) -> Any:
        """`stream` as the block returns it; a stream of the user's positions gets this block's prompt positions."""
        full = self.inputs[0][0]
        if stream.shape[1] != full.shape[1]:
            full = full.clone()
            full[:, _prompt_length(self) :] = stream
            stream = full
        return (stream, None)

    layer_input = _user_tokens(Layer, "layer_input", "input")
    attention_norm_output = _user_tokens(Layer, "attention_norm_output", "input_layernorm.output")
    layer_mid = _user_tokens(Layer, "layer_mid", "post_attention_layernorm.input")
    mlp_norm_output = _user_tokens(Layer, "mlp_norm_output", "post_attention_layernorm.output")
    mlp_input = _user_tokens(Layer, "mlp_input", "mlp.input", description="What the MLP wrapper is called with")
    layer_output = _user_tokens(Layer, "layer_output", "output", packed=True)


_INNER = "self_attention"


class Attention(OwnAttention):
    """CPM-Ant's attention wrapper, read at the operations of the attention inside it."""

    @property
    def num_heads(self) -> int:
        return self._module.self_attention.num_heads

    @property
    def head_dim(self) -> int:
        return self._module.self_attention.dim_head

    attention_queries = _user_tokens(
        OwnAttention, "attention_queries", f"{_INNER}.source.permute_0.output", axis=2, unavailable=always
    )
    attention_keys = own_value(
        "attention_keys",
        f"{_INNER}.source.torch_matmul_0.inputs",
        KEYS_TRANSPOSED,
        select=1,
        description="The keys entering attention, the prompt positions first",
    )
    attention_values = own_value(
        "attention_values",
        f"{_INNER}.source.torch_matmul_1.inputs",
        select=1,
        description="The values entering attention, the prompt positions first",
    )
    attention_scores = _user_tokens(
        OwnAttention,
        "attention_scores",
        f"{_INNER}.softmax.input",
        axis=2,
        unavailable=always,
        description="The scaled scores plus the position bias, masked with minus infinity, the prompt keys first",
    )
    attention_probabilities = _user_tokens(
        OwnAttention,
        "attention_probabilities",
        f"{_INNER}.source.torch_masked_fill_1.output",
        axis=2,
        unavailable=always,
        description="The attention pattern the values are mixed with, masked weights zeroed, the prompt keys first",
    )
    attention_head_outputs = _user_tokens(
        OwnAttention,
        "attention_head_outputs",
        f"{_INNER}.source.torch_matmul_1.output",
        axis=2,
        shape=HEADS_FIRST,
        unavailable=always,
    )
    attention_premix = _user_tokens(OwnAttention, "attention_premix", f"{_INNER}.o_proj.input", shape=MERGED_HEADS)
    attention_output = _user_tokens(
        OwnAttention,
        "attention_output",
        f"{_INNER}.output",
        packed=True,
        description="What the attention adds to the residual stream, the inner attention's output",
    )


class Mlp(Mlp):
    """CPM-Ant's MLP wrapper: its inner gated MLP's output is what the wrapper adds."""

    mlp_output = _user_tokens(
        Mlp, "mlp_output", "ffn.output", description="What the MLP adds to the residual stream, the inner MLP's output"
    )
    mlp_activation = _user_tokens(Mlp, "mlp_activation", "act_fn.output")
    mlp_neurons = _user_tokens(Mlp, "mlp_neurons", "down_proj.input")


def intermediate_size(model) -> int:
    """The MLP width, `dim_ff` in the config."""
    return model.config.dim_ff


ENVOYS = {CpmAntTransformerBlock: Layer, CpmAntSelfAttentionBlock: Attention, CpmAntFFNBlock: Mlp}
