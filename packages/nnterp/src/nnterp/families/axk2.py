"""A.X K2 (`AXK2ForCausalLM`): DeepSeek-V3.2's block with gated norms and a sigmoid gate on the attention heads.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is multi-head latent attention (see `nnterp.components.latent`) on the
shared eager interface, narrowed by a DeepSeek-V3.2 indexer (`indexer`): on the eager
and sdpa paths the keys the indexer drops are folded into the attention mask, so
`attention_scores` carry the dtype's minimum there and `attention_probabilities` are
zero. The queries come out of one fused projection (`q_gate_proj`) beside a per-head
gate; the heads' output is multiplied by the gate's sigmoid before `o_proj`, so
`attention_premix` is the gated heads and not `attention_head_outputs`. The norms
feeding the attention, and the mixture on sparse blocks, are gated RMSNorms (the
RMSNorm's output times the sigmoid of a low-rank MLP of it, `norm` and `mlp` inside):
their output is what the sublayer reads. `mlp_layer_types` gives the first blocks a
dense MLP and the others a mixture, so the mixture values are reported per block.
The mixture is DeepSeek-V3's: a sigmoid router with a correction bias (`gate`,
grouped top-k where `n_group` is set), the chosen sigmoid scores renormalized when
`norm_topk_prob` is set and multiplied by `routed_scaling_factor`, grouped experts,
and shared experts added after the routed ones.
"""

from transformers.models.axk2.modeling_axk2 import AXK2MLP, AXK2Attention, AXK2DecoderLayer, AXK2MoE

from nnterp.components import LatentAttention
from nnterp.families.deepseek_v3 import RENAME, Layer, Mlp, Moe, head_dim, qk_head_dim

__all__ = ["ENVOYS", "RENAME", "Layer", "Mlp", "Moe", "head_dim", "qk_head_dim"]

ENVOYS = {
    AXK2DecoderLayer: Layer,
    AXK2Attention: LatentAttention,
    AXK2MLP: Mlp,
    AXK2MoE: Moe,
}
