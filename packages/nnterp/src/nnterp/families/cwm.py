"""CWM (`CwmForCausalLM`): Llama's block, with sliding-window and full-attention blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Blocks listed as `sliding_attention` in `config.layer_types` hand their own `sliding_window`
to the shared interface, which masks every key further back than the window; the
others attend to the whole prefix. CWM's config defaults to a Llama 3 rotary scaling.
"""

from transformers.models.cwm.modeling_cwm import CwmAttention, CwmDecoderLayer, CwmMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {CwmDecoderLayer: Layer, CwmAttention: Attention, CwmMLP: Mlp}
