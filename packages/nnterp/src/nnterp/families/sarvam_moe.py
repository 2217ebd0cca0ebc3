"""Sarvam-MoE (`sarvam_moe`): GLM-4-MoE's model under its own config type, so GLM-4-MoE's family.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

transformers builds `Glm4MoeForCausalLM` for this type; only the config class
differs (it reads the original Sarvam key names), so the modules, names and values
are GLM-4-MoE's: query and key norms, dense first blocks, then a grouped sigmoid
mixture with shared experts.
"""

from .glm4_moe import ENVOYS, RENAME, Attention, Layer, Mlp, Moe

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "Moe"]
