"""Falcon (`FalconForCausalLM`): its own attention arithmetic inside a parallel block, in three layouts.

Falcon-7B (`parallel_attn`): `out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`
Falcon-40B (`new_decoder_architecture`): `out = x + self_attn(ln_attn(x)) + mlp(ln_mlp(x))`
RW-1B (neither): `h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

On the parallel layouts `layer_mid` is unavailable, the MLP's norm is the
attention's (7B) or `ln_mlp` (40B, named `post_attention_layernorm` here, with
`ln_attn` named `input_layernorm`), and the block adds the attention's output into
the MLP's output tensor in place before `dropout_add` adds the residual: the sum is
`(mlp + attn) + x`, so the contribution identity holds to float32 rounding there,
and bit for bit on the sequential layout. Because of that in-place add,
`mlp_output` is a copy, and an in-place edit of it is handed back to the model.
The block returns `(hidden_states, attn_weights)`.

The attention never calls the shared interface: with `attn_implementation="eager"`
it multiplies, masks and normalizes in its own forward, on one of two paths chosen
by `config.alibi`. Without alibi the queries and keys leave the rotary embedding,
the scores enter the first `F.softmax` and its output is the pattern; with alibi
the queries and keys are their reshaped bindings, the scores (alibi added, scaled)
enter the second `F.softmax`, and the pattern leaves `attention_dropout`. The keys
and values are the cache update's result (as long as the cache) whenever the model
caches. Without alibi and without a cache the values bind before the queries and
keys leave the rotary embedding, so read them first there. On the 40B layout the
keys and values are served already repeated to every query head.
"""

from transformers.models.falcon.modeling_falcon import FalconAttention, FalconDecoderLayer, FalconMLP

from nnterp.components import (
    FOLDED_HEADS,
    HEADS_FIRST,
    EProperty,
    Mlp,
    OwnAttention,
    ParallelLayer,
    Residual,
    first_tensor,
    needs_eager,
    own_value,
    rewrap,
)
from nnterp.components.attention import module_config
from nnterp.components.own_attention import chain
from nnterp.families.bloom import RENAME as BLOOM_RENAME

# Falcon keeps BLOOM's module names (its code grew out of BLOOM's); the norms and the activation are its own.
RENAME = {
    **BLOOM_RENAME,
    "ln_attn": "input_layernorm",
    "ln_mlp": "post_attention_layernorm",
    "act": "act_fn",
}


def _alibi(attention) -> bool:
    """Whether this checkpoint adds alibi biases instead of rotating the queries and keys."""
    return bool(module_config(attention).alibi)


def _cached(attention) -> bool:
    """Whether the forward runs the cache update, which returns the keys and values as long as the cache."""
    return bool(getattr(module_config(attention), "use_cache", True))


def _by_alibi(without: str, with_alibi: str):
    """A key naming `with_alibi` on an alibi checkpoint and `without` otherwise."""

    def key(attention) -> str:
        return f"source.{with_alibi if _alibi(attention) else without}"

    return key


def _kv_key(binding: str):
    """Where the keys or the values are read: the cache update, else the rotary embedding or the binding."""
    rotary = "apply_rotary_pos_emb_0.output" if binding == "key_layer_0" else f"{binding}.output"

    def key(attention) -> str:
        if _cached(attention):
            return "source.layer_past_update_0.output"
        return f"source.{binding}.output" if _alibi(attention) else f"source.{rotary}"

    return key


def _kv_select(index: int, binding: str):
    """The element of what `kv_key` serves: the cache's pair, the rotary pair, or the binding itself."""

    def select(attention):
        if _cached(attention):
            return index
        if binding == "key_layer_0" and not _alibi(attention):
            return 1
        return None

    return select


def _heads_read(attention, value):
    """The head outputs heads-first on the rotary path, batch and heads folded on the alibi path."""
    shape = chain(FOLDED_HEADS, HEADS_FIRST) if _alibi(attention) else HEADS_FIRST
    return shape[0](attention, value)


def _heads_write(attention, value):
    shape = chain(FOLDED_HEADS, HEADS_FIRST) if _alibi(attention) else HEADS_FIRST
    return shape[1](attention, value)


class Layer(ParallelLayer):
    """Falcon's block: parallel unless the checkpoint sets neither `parallel_attn` nor `new_decoder_architecture`."""

    returns_tuple = True

    def parallel(self) -> bool:
        config = self._module.config
        return bool(config.new_decoder_architecture or config.parallel_attn)

    @property
    def PARALLEL_MLP_NORM(self) -> str:  # noqa: N802 - the base's class attribute, per checkpoint here
        return "post_attention_layernorm" if hasattr(self._module, "ln_mlp") else "input_layernorm"


class Attention(OwnAttention):
    """Falcon's attention, read at its own operations on the eager path of its forward."""

    def off_interface(self) -> str | None:
        # The forward runs its own arithmetic only on the eager path; sdpa skips it.
        return needs_eager(self)

    @property
    def num_kv_heads(self) -> int:
        return self._module.num_kv_heads

    attention_queries = own_value(
        "attention_queries",
        _by_alibi("apply_rotary_pos_emb_0.output", "query_layer_0.output"),
        select=lambda a: None if _alibi(a) else 0,
    )
    attention_keys = own_value("attention_keys", _kv_key("key_layer_0"), select=_kv_select(0, "key_layer_0"))
    attention_values = own_value("attention_values", _kv_key("value_layer_0"), select=_kv_select(1, "value_layer_0"))
    attention_scores = own_value("attention_scores", _by_alibi("F_softmax_0.input", "F_softmax_1.input"))
    attention_probabilities = own_value(
        "attention_probabilities",
        lambda a: "attention_dropout.output" if _alibi(a) else "source.F_softmax_0.output",
    )
    attention_head_outputs = own_value(
        "attention_head_outputs",
        _by_alibi("attn_output_1.output", "flatten_0.output"),
        (_heads_read, _heads_write),
    )


class Mlp(Mlp):
    """Falcon's plain MLP; its contribution is a copy, since the block adds the attention into it in place."""

    @EProperty(
        "output",
        description="What the MLP adds to the residual stream (a copy: the block adds the attention into it in place)",
    )
    def mlp_output(self, value) -> Residual:
        return first_tensor(value).clone()

    @mlp_output.postprocess
    def mlp_output(self, value):
        return rewrap(self, value)

    @mlp_output.transform
    def mlp_output(self, value, raw):
        return value.clone()


def intermediate_size(model) -> int:
    """Falcon's MLP width is `config.ffn_hidden_size`."""
    return model.config.ffn_hidden_size


def num_kv_heads(model) -> int:
    """One key/value head under `multi_query` (Falcon-7B), else `config.num_kv_heads`."""
    config = model.config
    return config.num_kv_heads if (config.new_decoder_architecture or not config.multi_query) else 1


ENVOYS = {FalconDecoderLayer: Layer, FalconAttention: Attention, FalconMLP: Mlp}
