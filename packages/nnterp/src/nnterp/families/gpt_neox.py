"""GPT-NeoX (`GPTNeoXForCausalLM`, Pythia): a parallel block by default.

`out = x + self_attn(input_layernorm(x)) + mlp(post_attention_layernorm(x))` with
`use_parallel_residual`, else `h = x + self_attn(input_layernorm(x)); out = h +
mlp(post_attention_layernorm(h))` (each contribution after its dropout).

With `use_parallel_residual` the attention and the MLP both read the block input,
each through its own norm, and the block adds `mlp + attn + x`: the contribution
identity holds to rounding and there is no stream between the sublayers, so
`layer_mid` is unavailable there. The contributions are read after the block's own
dropouts, which is what the block adds. The head is `embed_out` on older releases
and `lm_head` on newer ones; both spellings are keys.
"""

from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXAttention, GPTNeoXLayer, GPTNeoXMLP

from nnterp.components import Attention, Mlp, ParallelLayer, block_contribution

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


class Layer(ParallelLayer):
    """GPT-NeoX's block: parallel where the checkpoint sets `use_parallel_residual`, its MLP normed by `post_attention_layernorm` either way."""

    PARALLEL_MLP_NORM = "post_attention_layernorm"

    def parallel(self) -> bool:
        return bool(self._module.use_parallel_residual)


class Attention(Attention):
    """GPT-NeoX's attention; the shared eager interface, the contribution after the block's dropout."""

    @property
    def head_dim(self) -> int:
        return self._module.head_size

    attention_output = block_contribution("../post_attention_dropout.output", "attention")


class Mlp(Mlp):
    """GPT-NeoX's plain MLP; the contribution after the block's dropout."""

    mlp_output = block_contribution("../post_mlp_dropout.output", "mlp")


ENVOYS = {GPTNeoXLayer: Layer, GPTNeoXAttention: Attention, GPTNeoXMLP: Mlp}
