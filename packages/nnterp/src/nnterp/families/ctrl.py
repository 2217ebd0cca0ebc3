"""CTRL (`CTRLLMHeadModel`): a pre-norm block under names of its own, an MLP that is an `nn.Sequential`.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

None of CTRL's names is standard, so every one is renamed: the embedding `w`, the
blocks `h`, the norms `layernorm1`/`layernorm2` and the final `layernorm`, the
attention `multi_head_attention` (its output projection `dense`, aliased `o_proj`)
and the MLP `ffn`, an `nn.Sequential` whose children `1` (a ReLU) and `2` are
aliased `act_fn` and `down_proj`. The attention is called `(v, k, q)`, each the
normed stream, and calls the shared interface. The model multiplies the embedding
output by `sqrt(n_embd)` in place and adds a sinusoidal position table, so the
tensor `token_embeddings` serves holds the scaled values once the forward moves on:
take `.clone()` inside the trace for the embedding itself. The block returns the
bare tensor.
"""

from transformers.models.ctrl.modeling_ctrl import EncoderLayer, MultiHeadAttention

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "transformer.w": "embed_tokens",
    "transformer.h": "layers",
    "transformer.layernorm": "norm",
    "layernorm1": "input_layernorm",
    "layernorm2": "post_attention_layernorm",
    "multi_head_attention": "self_attn",
    "multi_head_attention.dense": "multi_head_attention.o_proj",
    "ffn": "mlp",
    "ffn.1": "ffn.act_fn",
    "ffn.2": "ffn.down_proj",
}


def intermediate_size(model) -> int:
    """The MLP width, `config.dff`."""
    return model.config.dff


# The MLP is a bare `nn.Sequential`, so its envoy is keyed on its standard name.
ENVOYS = {EncoderLayer: Layer, MultiHeadAttention: Attention, "mlp": Mlp}
