"""GPT-NeoX-Japanese (`GPTNeoXJapaneseForCausalLM`): a pre-norm block, its own attention arithmetic, a last-block bias.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

The attention returns `(output, weights, dense_bias)`, and the block adds the
output, plus the bias where there is one, to the stream in `bias_dropout_add`. Only
the last block's attention holds a `dense_bias`, so the attention's contribution
is read inside `bias_dropout_add`, as the dropout's output: the output with the
bias added, on every block. The attention never calls the shared interface: the
queries (rotated on a `partial_rotary_factor` share of each head), keys and values
enter `_attn` (the keys and values as long as the cache), the scores enter its
softmax with the mask added, the pattern leaves `attention_dropout`, and
`_merge_heads` puts the heads side by side for `dense` (aliased `o_proj`). The
head is `embed_out`. The block returns `(hidden_states, attn_weights)`.
"""

from transformers.models.gpt_neox_japanese.modeling_gpt_neox_japanese import (
    GPTNeoXJapaneseAttention,
    GPTNeoXJapaneseLayer,
    GPTNeoXJapaneseMLP,
)

from nnterp.components import HEADS_FIRST, Layer, Mlp, OwnAttention, own_value

RENAME = {
    "gpt_neox_japanese.embed_in": "embed_tokens",
    "gpt_neox_japanese.layers": "layers",
    "gpt_neox_japanese.final_layer_norm": "norm",
    "embed_out": "lm_head",
    "attention": "self_attn",
    "attention.dense": "attention.o_proj",
    "dense_4h_to_h": "down_proj",
    "act": "act_fn",
}

_INNER = "source.self__attn_0"


def _added_key(attention) -> str:
    """The dropout inside the block's first `bias_dropout_add`, anchored at the root (a drill above the host)."""
    block = attention.parent.path[len(attention.root.path) + 1 :]
    return f"/{block}.source.bias_dropout_add_0.source.torch_nn_functional_dropout_0.output"


class Layer(Layer):
    """GPT-NeoX-Japanese's block; it returns `(hidden_states, attn_weights)`."""

    returns_tuple = True


class Attention(OwnAttention):
    """GPT-NeoX-Japanese's attention, read inside `_attn`; the contribution carries the last block's bias."""

    attention_queries = own_value("attention_queries", f"{_INNER}.inputs", select=0)
    attention_keys = own_value("attention_keys", f"{_INNER}.inputs", select=1)
    attention_values = own_value("attention_values", f"{_INNER}.inputs", select=2)
    attention_scores = own_value("attention_scores", f"{_INNER}.source.nn_functional_softmax_0.input")
    attention_probabilities = own_value("attention_probabilities", "attention_dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", f"{_INNER}.output", HEADS_FIRST, select=0)
    attention_output = own_value(
        "attention_output",
        _added_key,
        description="What the attention adds to the residual stream: its output plus the block's bias, if any",
    )


def intermediate_size(model) -> int:
    """The MLP width is `intermediate_multiple_size` times the hidden size."""
    return int(model.hidden_size * model.config.intermediate_multiple_size)


ENVOYS = {GPTNeoXJapaneseLayer: Layer, GPTNeoXJapaneseAttention: Attention, GPTNeoXJapaneseMLP: Mlp}
