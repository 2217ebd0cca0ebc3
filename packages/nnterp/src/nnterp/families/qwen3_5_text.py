"""Qwen3.5 (`Qwen3_5ForCausalLM`): a hybrid of gated DeltaNet blocks and gated-query attention blocks.

`config.layer_types` gives each block either `linear_attn`, a gated DeltaNet mixer
(`LinearAttention`), or `self_attn`, softmax attention whose query projection is
twice as wide and carries a sigmoid gate applied to the heads before `o_proj`.
Every block has the same dense MLP and Llama's order:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. The norms scale by
`1 + weight`. The mixer's state per token needs
`nnterp.route_kernels(model.family, "torch")` before the first trace.

The Qwen3.5 wrapper (`qwen3_5`) is served by `nnterp.families.qwen3_5`.
"""

from transformers.models.qwen3_5.modeling_qwen3_5 import (
    Qwen3_5Attention,
    Qwen3_5DecoderLayer,
    Qwen3_5GatedDeltaNet,
    Qwen3_5MLP,
)

from nnterp.components import Attention, HybridLayer, LinearAttention, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    Qwen3_5DecoderLayer: HybridLayer,
    Qwen3_5Attention: Attention,
    Qwen3_5GatedDeltaNet: LinearAttention,
    Qwen3_5MLP: Mlp,
}
