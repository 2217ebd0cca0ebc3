"""MPT (`MptForCausalLM`): a pre-norm block, ALiBi, its own attention arithmetic, the MLP adding the residual.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

The attention never calls the shared interface. One `Wqkv` projection, clamped to
`clip_qkv` when the config sets it, is chunked into the queries, keys and values;
the scores are their product times `softmax_scale`, plus the ALiBi bias the model
builds once, then masked. The queries and keys are read as they enter that
product (the keys transposed there, served in the standard layout, as long as the
cache), the values as they enter the product with the pattern, the scores as they
enter the softmax (ALiBi and the mask included), the pattern after the dropout.
The MLP is called with the residual and returns `down_proj`'s output plus it, so
its contribution is read at the dropout before that add. The queries are a view
out of one `chunk`, which torch refuses to edit in place: assign them instead. The
norms carry no bias and the block returns `(hidden_states, attn_weights)`.
"""

from transformers.models.mpt.modeling_mpt import MptAttention, MptBlock, MptMLP

from nnterp.components import (
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    EProperty,
    Layer,
    Mlp,
    OwnAttention,
    Residual,
    always,
    own_value,
)

RENAME = {
    "transformer.wte": "embed_tokens",
    "transformer.blocks": "layers",
    "transformer.norm_f": "norm",
    "norm_1": "input_layernorm",
    "attn": "self_attn",
    "norm_2": "post_attention_layernorm",
    "ffn": "mlp",
    "out_proj": "o_proj",
    "act": "act_fn",
}


class Layer(Layer):
    """MPT's block; it returns `(hidden_states, attn_weights)`."""

    returns_tuple = True


class Attention(OwnAttention):
    """MPT's attention, read at the two products and the softmax of its own forward."""

    attention_queries = own_value("attention_queries", "source.torch_matmul_0.inputs", select=0)
    attention_keys = own_value("attention_keys", "source.torch_matmul_0.inputs", KEYS_TRANSPOSED, select=1)
    attention_values = own_value("attention_values", "source.torch_matmul_1.inputs", select=1)
    attention_scores = own_value("attention_scores", "source.nn_functional_softmax_0.input")
    attention_probabilities = own_value("attention_probabilities", "source.nn_functional_dropout_0.output")
    attention_head_outputs = own_value("attention_head_outputs", "source.torch_matmul_1.output", HEADS_FIRST)


class Mlp(Mlp):
    """MPT's plain MLP; it adds the residual itself, so the contribution is read before that add."""

    @EProperty(
        "source.F_dropout_0.output",
        description="What the MLP adds to the residual stream: down_proj's output after the dropout",
        unavailable=always,
    )
    def mlp_output(self, value) -> Residual:
        return value


def intermediate_size(model) -> int:
    """The MLP width is `expansion_ratio` times the hidden size."""
    return model.config.expansion_ratio * model.hidden_size


ENVOYS = {MptBlock: Layer, MptAttention: Attention, MptMLP: Mlp}
