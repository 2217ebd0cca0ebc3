"""BLOOM (`BloomForCausalLM`): its own attention arithmetic, and the residual added inside each sublayer.

Both sublayers take the residual as an argument and return `dropout_add(x,
residual)`, so a module's output is a state of the stream and the contribution is
the first argument of that call. The attention never calls the shared interface:
its queries come out of `_reshape`, the keys and values out of the cache
update (as long as the cache), the scores enter
`F.softmax`, and the pattern leaves `attention_dropout`, under any
`attn_implementation`. The block returns `(hidden_states, attn_weights)`.
"""

from transformers.models.bloom.modeling_bloom import BloomAttention, BloomBlock, BloomMLP

from nnterp.components import MERGED_HEADS, EProperty, Layer, Mlp, OwnAttention, Residual, always, own_value
from nnterp.components.attention import module_config

RENAME = {
    "transformer.word_embeddings": "embed_tokens",
    "transformer.h": "layers",
    "transformer.ln_f": "norm",
    "self_attention": "self_attn",
    "self_attention.dense": "self_attention.o_proj",
    "dense_4h_to_h": "down_proj",
    "gelu_impl": "act_fn",
}

_SLICED = "this checkpoint sets slow_but_exact with pretraining_tp > 1, which projects the heads slice by slice"


def _sliced_projection(attention) -> str | None:
    """The output projection is skipped when the config projects slice by slice."""
    module = attention._module
    return _SLICED if module.pretraining_tp > 1 and module.slow_but_exact else None


def _cached(attention) -> bool:
    """Whether the forward runs the cache update, which returns the keys and values as long as the cache."""
    return bool(getattr(module_config(attention), "use_cache", True))


def _kv_key(attention) -> str:
    """Where the keys and values are read: the cache update's result, else `_reshape`'s."""
    return "source.layer_past_update_0.output" if _cached(attention) else "source.self__reshape_0.output"


class Layer(Layer):
    """BLOOM's block; it returns `(hidden_states, attn_weights)`."""

    returns_tuple = True


class Attention(OwnAttention):
    """BLOOM's attention, read at its own operations; the contribution enters `dropout_add`."""

    attention_queries = own_value("attention_queries", "source.self__reshape_0.output", select=0)
    attention_keys = own_value("attention_keys", _kv_key, select=lambda a: 0 if _cached(a) else 1)
    attention_values = own_value("attention_values", _kv_key, select=lambda a: 1 if _cached(a) else 2)
    attention_scores = own_value("attention_scores", "source.F_softmax_0.input")
    attention_probabilities = own_value("attention_probabilities", "attention_dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", "source.self__merge_heads_0.output", MERGED_HEADS)
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS, unavailable=_sliced_projection)
    attention_output = own_value(
        "attention_output",
        "source.dropout_add_0.input",
        description="What the attention adds to the residual stream: the tensor entering dropout_add",
    )


class Mlp(Mlp):
    """BLOOM's MLP; the contribution enters `dropout_add`, the activation is `gelu_impl`."""

    @EProperty(
        "source.dropout_add_0.input",
        description="What the MLP adds to the residual stream: the tensor entering dropout_add",
        unavailable=always,
    )
    def mlp_output(self, value) -> Residual:
        return value


def intermediate_size(model) -> int:
    """BLOOM's MLP is four times the hidden size; the config has no width key."""
    return 4 * model.hidden_size


ENVOYS = {BloomBlock: Layer, BloomAttention: Attention, BloomMLP: Mlp}
