"""Zamba (`ZambaForCausalLM`): Mamba-1 blocks, some of which first run a shared transformer block whose result feeds the mixer.

`layers[i]` is the model's block `i`, and every block adds one thing to the stream, its
Mamba-1 mixer's output: `linear_attn` (a `HeadedScan`, native `mamba`) behind its norm
`input_layernorm`. A block that `config.layers_block_type` marks `hybrid` (native
`ZambaHybridLayer`) first runs a transformer block (native `shared_transf`, its weights
tied across the hybrid blocks) on the stream concatenated with the embedding output,
passes its result through a linear map (native `linear`) and adds that to the mixer's
input only. With `e` the embedding output and `t = linear(shared_transf(x, e))`:
`out = x + linear_attn(input_layernorm(x))` on a Mamba block and
`out = x + linear_attn(input_layernorm(x + t))` on a hybrid block. On a hybrid block
`self_attn` is the shared block's attention (served on the shared eager interface; it
reads the norm of the `2 * hidden_size` wide concatenation), whose `attention_output`
feeds the shared block's MLP (`layers[i].shared_transf.feed_forward`), not the stream.
No block has an `mlp` of its own; a Mamba block has no `self_attn`.

The mixer splits its channels into `n_mamba_heads` heads and runs one selective scan per
head in a Python loop; `HeadedScan` reads its values around that loop.
"""

from transformers.models.zamba.modeling_zamba import ZambaAttention, ZambaMambaMixer

from nnterp.components import Attention, HeadedScan, HybridLayer

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "mamba": "linear_attn",
    "mamba_decoder.mamba": "linear_attn",
    "mamba_decoder.input_layernorm": "input_layernorm",
    "shared_transf.self_attn": "self_attn",
}


ENVOYS = {
    "layers.*": HybridLayer,
    ZambaAttention: Attention,
    ZambaMambaMixer: HeadedScan,
}
