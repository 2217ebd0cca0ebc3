"""GPT-J (`GPTJForCausalLM`): a parallel block with one norm and a partial rotary embedding.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

`ln_1` feeds both sublayers, so `mlp_norm_output` is the attention's normed input
and `layer_mid` is unavailable. The block sums `attn + mlp + x`, so the contribution
identity holds to float32 rounding. Each sublayer ends in its own dropout
(`resid_dropout` in the attention, `dropout` in the MLP), so a module's output is its
contribution. The queries and keys rotate their first `rotary_dim` channels.

The attention's code comes in two shapes, and the values follow the module: one
calls the shared eager interface and the block returns the stream; the other
computes in the attention's own `_attn` method (the queries, keys and values are
its arguments, the scores enter its softmax, the pattern leaves `attn_dropout`, the
head outputs are its result, heads first) and the block returns
`(hidden_states, attn_weights)`. Either way the interior needs the eager attention.
"""

from transformers.models.gptj.modeling_gptj import GPTJMLP, GPTJAttention, GPTJBlock

from nnterp.components import INTERFACE, Attention, Mlp, ParallelLayer, interface_reason, own_value
from nnterp.components.layer import returns_tuple_by_annotation
from nnterp.components.mlp import n_inner_intermediate_size

RENAME = {
    "transformer.wte": "embed_tokens",
    "transformer.h": "layers",
    "transformer.ln_f": "norm",
    "attn": "self_attn",
    "attn.out_proj": "attn.o_proj",
    "ln_1": "input_layernorm",
    "fc_out": "down_proj",
    "act": "act_fn",
}


def _own_attn(attention) -> bool:
    """Whether this attention computes in its own `_attn` method instead of calling the shared interface."""
    return hasattr(attention._module, "_attn")


def _either(own, shared):
    """A key or a select: `own` where the attention computes in `_attn`, `shared` where it calls the interface."""
    return lambda attention: own if _own_attn(attention) else shared


def _heads_first(attention, value):
    """`_attn` returns the head outputs heads first; the interface returns them sequence first."""
    return value.transpose(1, 2) if _own_attn(attention) else value


def _interior(name: str, own: str, shared: str, select: tuple | None = None, shape=None):
    """The base value `name`, read at `own` of the `_attn` call or at `shared` of the interface's, both paths in `source`."""
    same = (lambda attention, value: value, lambda attention, value: value)
    return own_value(
        name,
        _either(f"source.self__attn_0.{own}", f"source.{shared}"),
        shape=shape or same,
        select=_either(*select) if select is not None else None,
        unavailable=interface_reason,
    )


def _scores_key(attention) -> str:
    """The softmax's input: inside `_attn` at the attention's `OWN_SCORES`, else inside the eager interface."""
    if _own_attn(attention):
        return f"source.self__attn_0.{attention.OWN_SCORES}"
    return f"source.{INTERFACE}.source.nn_functional_softmax_0.input"


class Layer(ParallelLayer):
    """GPT-J's parallel block; `ln_1` feeds both sublayers."""

    returns_tuple = returns_tuple_by_annotation(GPTJBlock)


class Attention(Attention):
    """GPT-J's attention, read inside `_attn` or at the shared interface, whichever its forward calls.

    `OWN_SCORES` is where `_attn` feeds its softmax, the one operation its copies
    (CodeGen) spell otherwise.
    """

    OWN_SCORES = "source.nn_functional_softmax_0.input"

    attention_queries = _interior("attention_queries", "inputs", f"{INTERFACE}.inputs", select=(0, 1))
    attention_keys = _interior("attention_keys", "inputs", f"{INTERFACE}.inputs", select=(1, 2))
    attention_values = _interior("attention_values", "inputs", f"{INTERFACE}.inputs", select=(2, 3))
    attention_scores = own_value("attention_scores", _scores_key, unavailable=interface_reason)
    attention_probabilities = own_value(
        "attention_probabilities",
        _either("attn_dropout.output", f"source.{INTERFACE}.source.nn_functional_dropout_0.output"),
        unavailable=interface_reason,
    )
    attention_head_outputs = _interior(
        "attention_head_outputs", "output", f"{INTERFACE}.output", select=(0, 0), shape=(_heads_first, _heads_first)
    )


#: The MLP width is `n_inner`, `None` meaning four times the hidden size, as GPT-2's.
intermediate_size = n_inner_intermediate_size

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "intermediate_size"]

ENVOYS = {GPTJBlock: Layer, GPTJAttention: Attention, GPTJMLP: Mlp}
