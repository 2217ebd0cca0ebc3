"""BitNet (`BitNetForCausalLM`): Llama's block with a sub-norm before each output projection.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms its merged head outputs with `attn_sub_norm` before `o_proj`, so
`attention_premix` (the projection's input) is the normed heads and differs from
`attention_head_outputs`. The MLP norms the gated product with `ffn_sub_norm` before `down_proj`, so
`mlp_neurons` is the normed product, not `mlp_activation * up_proj(x)`. The weights are those of the
unquantized checkpoint.
"""

from transformers.models.bitnet.modeling_bitnet import BitNetAttention, BitNetDecoderLayer, BitNetMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {BitNetDecoderLayer: Layer, BitNetAttention: Attention, BitNetMLP: Mlp}
