"""Sarvam-MLA (`sarvam_mla`): DeepSeek-V3's model under its own config type, so DeepSeek-V3's family.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

transformers builds `DeepseekV3ForCausalLM` for this type; only the config class
differs (it translates the original Sarvam keys), so the modules, names and values
are DeepSeek-V3's: latent attention with as many key/value heads as query heads,
queries projected without a low-rank step when `q_lora_rank` is unset, dense first
blocks, then a grouped sigmoid mixture with shared experts.
"""

from .deepseek_v3 import ENVOYS, RENAME, Layer, Mlp, Moe, head_dim, qk_head_dim

__all__ = ["ENVOYS", "RENAME", "Layer", "Mlp", "Moe", "head_dim", "qk_head_dim"]
