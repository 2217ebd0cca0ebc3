"""Persimmon (`PersimmonForCausalLM`, Adept's Persimmon-8B): a sequential LayerNorm block with a fused projection.

`h = x + self_attn(input_layernorm(x)); out = h + dropout(mlp(post_attention_layernorm(h)))`

The attention projects queries, keys and values in one `query_key_value` and splits
them per head, applies LayerNorms per head (`qk_layernorm`) and a partial rotary
embedding, and calls the shared eager interface; its output projection is `dense`.
The MLP is `dense_h_to_4h`, `act` (squared ReLU by default), `dense_4h_to_h`, and
its contribution is read after the block's `dropout`. The block adds `(x + attn) +
mlp`, so the contribution identity holds bit for bit.

Fuyu, the wrapper over a Persimmon text model, is a module of its own that composes
this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.persimmon.modeling_persimmon import (
    PersimmonAttention,
    PersimmonDecoderLayer,
    PersimmonMLP,
)

from nnterp.components import Attention, Layer, Mlp, block_contribution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "self_attn.dense": "self_attn.o_proj",
    "dense_4h_to_h": "down_proj",
    "act": "act_fn",
}


class Mlp(Mlp):
    """Persimmon's plain MLP; the contribution after the block's `dropout`."""

    mlp_output = block_contribution("../dropout.output", "mlp")


ENVOYS = {PersimmonDecoderLayer: Layer, PersimmonAttention: Attention, PersimmonMLP: Mlp}
