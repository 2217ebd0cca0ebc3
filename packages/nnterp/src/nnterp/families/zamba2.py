"""Zamba2 (`Zamba2ForCausalLM`): Mamba-2 blocks, some of which first run a shared transformer block whose result feeds the mixer.

`layers[i]` is the model's block `i`, and every block adds one thing to the stream, its
Mamba-2 mixer's output: `linear_attn` (a `StateSpace`, native `mamba`) behind its norm
`input_layernorm`. A block that `config.layers_block_type` marks `hybrid` (native
`Zamba2HybridLayer`) first runs a transformer block (native `shared_transformer`, its
weights shared between the hybrid blocks, `num_mem_blocks` copies in turn) on the
stream concatenated with the embedding output, passes its result through a linear map
(native `linear`) and adds that to the mixer's input only, not to the stream. With
`e` the embedding output and `t = linear(shared_transformer(x, e))`:
`out = x + linear_attn(input_layernorm(x))` on a Mamba block and
`out = x + linear_attn(input_layernorm(x + t))` on a hybrid block, so on every block
`layer_input + linear_attn.attention_output == layer_output`, bit for bit.
On a hybrid block `self_attn` is the shared block's attention (its queries, keys,
values and pattern are served there): it reads the norm of the `2 * hidden_size` wide
concatenation, scales its scores by `(head_dim / 2) ** -0.5`, adds per-block low-rank
adapters to its projections when `use_shared_attention_adapter` is set, and its
`attention_output` (the output projection's) feeds the shared block's MLP
(`layers[i].shared_transformer.feed_forward`) rather than the stream. No block has
an `mlp` of its own. A Mamba block has no `self_attn`.
"""

from transformers.models.zamba2.modeling_zamba2 import Zamba2Attention, Zamba2MambaMixer

from nnterp.components import Attention, HybridLayer, StateSpace

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "mamba": "linear_attn",
    "mamba_decoder.mamba": "linear_attn",
    "mamba_decoder.input_layernorm": "input_layernorm",
    "shared_transformer.self_attn": "self_attn",
}


#: The blocks are keyed by path: a hybrid block holds a Mamba block of its own (`mamba_decoder`),
#: which is part of the block, not a block.
ENVOYS = {
    "layers.*": HybridLayer,
    Zamba2Attention: Attention,
    Zamba2MambaMixer: StateSpace,
}
