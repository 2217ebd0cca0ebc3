"""Bamba (`BambaForCausalLM`): a hybrid of Mamba-2 blocks and attention blocks, each with a gated MLP.

`config.layers_block_type` (from `attn_layer_indices`) gives each block either
`linear_attn`, a Mamba-2 mixer (`StateSpace`, native `mamba`), or `self_attn`.
Every block then runs the MLP (native `feed_forward`) behind its own norm (native
`pre_ff_layernorm`), in Llama's order:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. The block returns a tuple.
"""

from transformers.models.bamba.modeling_bamba import BambaAttention, BambaDecoderLayer, BambaMixer, BambaMLP

from nnterp.components import Attention, HybridLayer, Mlp, StateSpace

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "mamba": "linear_attn",
    "feed_forward": "mlp",
    "pre_ff_layernorm": "post_attention_layernorm",
}


class Layer(HybridLayer):
    """Bamba's block; it returns `(hidden_states, attention weights)`, and the model unpacks both."""

    returns_tuple = True

    def skip_with(self, stream):
        return stream, None


ENVOYS = {BambaDecoderLayer: Layer, BambaAttention: Attention, BambaMixer: StateSpace, BambaMLP: Mlp}
