"""A.X K1 (`AXK1ForCausalLM`): DeepSeek-V3's block whose mixture norms its own output.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is DeepSeek-V3's multi-head latent attention, always with a query
low-rank projection (see `nnterp.components.latent`); `mlp_layer_types` gives the
first blocks a dense MLP and the others a mixture. The mixture is DeepSeek-V3's (a
grouped sigmoid router with a correction bias, `gate`; grouped experts; shared
experts run after the routed ones), except that it passes the sum of the routed and
shared outputs through its own RMSNorm (`post_mlp_layernorm`) before returning it:
`mlp_output` is that normed sum, what the block adds, and
`routed_output + shared_expert_output` is the norm's input. The block, attention
and dense MLP envoys are DeepSeek-V3's.
"""

from transformers.models.axk1.modeling_axk1 import AXK1MLP, AXK1Attention, AXK1DecoderLayer, AXK1MoE

from nnterp.components import LatentAttention
from nnterp.families.deepseek_v3 import RENAME, Layer, Mlp, Moe, head_dim, qk_head_dim

__all__ = ["ENVOYS", "RENAME", "Layer", "Mlp", "Moe", "head_dim", "qk_head_dim"]


ENVOYS = {
    AXK1DecoderLayer: Layer,
    AXK1Attention: LatentAttention,
    AXK1MLP: Mlp,
    AXK1MoE: Moe,
}
