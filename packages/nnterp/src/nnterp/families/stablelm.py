"""StableLM (`StableLmForCausalLM`): a sequential block, or a parallel one with `use_parallel_residual`.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`, or,
with `use_parallel_residual`, `out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

The parallel block has no `post_attention_layernorm`: one LayerNorm feeds both
sublayers, `mlp_norm_output` is the attention's normed input, and `layer_mid` is
unavailable; the values follow each checkpoint's flag. Either block adds
`(x + attn) + mlp`, so the contribution identity holds bit for bit. The MLP's
contribution is read after the block's `dropout`, which only the MLP passes. The
attention is the shared eager interface with a partial rotary embedding and, with
`qk_layernorm`, a LayerNorm per head on the queries and keys.
"""

from transformers.models.stablelm.modeling_stablelm import StableLmAttention, StableLmDecoderLayer, StableLmMLP

from nnterp.components import Attention, Mlp, ParallelLayer, block_contribution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(ParallelLayer):
    """StableLM's block: parallel where the checkpoint sets `use_parallel_residual`."""

    def parallel(self) -> bool:
        return bool(self._module.use_parallel_residual)


class Mlp(Mlp):
    """StableLM's gated MLP, Llama's; the contribution after the block's `dropout`."""

    mlp_output = block_contribution("../dropout.output", "mlp")


ENVOYS = {StableLmDecoderLayer: Layer, StableLmAttention: Attention, StableLmMLP: Mlp}
