"""GPT-NeoX (`GPTNeoXForCausalLM`, Pythia): a parallel block by default.

With `use_parallel_residual` the attention and the MLP both read the block input,
each through its own norm, and the block adds `mlp + attn + x`: the contribution
identity holds to rounding and there is no stream between the sublayers, so
`layer_mid` is unavailable there. The contributions are read after the block's own
dropouts, which is what the block adds. The head is `embed_out` on older releases
and `lm_head` on newer ones; both spellings are keys.
"""

from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXAttention, GPTNeoXLayer, GPTNeoXMLP

from nnterp.components import PARALLEL, Attention, EProperty, Layer, Mlp, Residual

RENAME = {
    "gpt_neox.embed_in": "embed_tokens",
    "gpt_neox.layers": "layers",
    "gpt_neox.final_layer_norm": "norm",
    "embed_out": "lm_head",
    "attention": "self_attn",
    "attention.dense": "attention.o_proj",
    "dense_4h_to_h": "down_proj",
    "act": "act_fn",
}


def parallel_reason(layer) -> str | None:
    """`PARALLEL` when this checkpoint runs the parallel residual."""
    return PARALLEL if layer._module.use_parallel_residual else None


class Layer(Layer):
    """GPT-NeoX's block; the stream between the sublayers exists only without the parallel residual."""

    @EProperty(
        "post_attention_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=parallel_reason,
    )
    def layer_mid(self, value) -> Residual:
        return value


class Attention(Attention):
    """GPT-NeoX's attention; the shared eager interface, the contribution after the block's dropout."""

    @property
    def head_dim(self) -> int:
        return self._module.head_size

    @EProperty("../post_attention_dropout.output", description="What the attention adds to the residual stream")
    def attention_output(self, value) -> Residual:
        return value


class Mlp(Mlp):
    """GPT-NeoX's plain MLP; the contribution after the block's dropout."""

    @EProperty("../post_mlp_dropout.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, value) -> Residual:
        return value


ENVOYS = {GPTNeoXLayer: Layer, GPTNeoXAttention: Attention, GPTNeoXMLP: Mlp}
