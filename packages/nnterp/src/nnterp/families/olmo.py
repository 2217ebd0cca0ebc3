"""OLMo (`OlmoForCausalLM`): Llama's block with layer norms that have no weight or bias.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`input_layernorm`, `post_attention_layernorm` and the final `norm` are parameter-free layer norms
(`OlmoLayerNorm`). With `clip_qkv` set, the attention clamps the query, key and value projections in
place before the rotary embedding; the interior values are read after the clamp.
"""

from transformers.models.olmo.modeling_olmo import OlmoAttention, OlmoDecoderLayer, OlmoMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {OlmoDecoderLayer: Layer, OlmoAttention: Attention, OlmoMLP: Mlp}
