"""SmolLM3 (`SmolLM3ForCausalLM`): Llama's block with some blocks that use no positional embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`config.no_rope_layers[i] == 0` makes block `i` skip the rotary embedding (NoPE), so its queries and
keys are the projections alone; every other block rotates them. Blocks marked `sliding_attention`
pass a sliding window to the shared interface when `use_sliding_window` is set.
"""

from transformers.models.smollm3.modeling_smollm3 import SmolLM3Attention, SmolLM3DecoderLayer, SmolLM3MLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {SmolLM3DecoderLayer: Layer, SmolLM3Attention: Attention, SmolLM3MLP: Mlp}
