"""GLM-4.7-Flash (`Glm4MoeLiteForCausalLM`): DeepSeek-V3's latent attention and grouped sigmoid mixture under GLM's name.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is multi-head latent attention: the queries, keys and values are read
where they enter the shared attention interface, with as many key/value heads as
query heads, `qk_head_dim` wide queries and keys and `v_head_dim` wide values (see
`nnterp.components.latent`); `rope_interleave` makes the rotary embedding take
interleaved pairs. `config.mlp_layer_types` says which blocks carry a dense MLP and
which a mixture, so the mixture values are reported per block. The router (`gate`)
scores its logits with a sigmoid, adds a correction bias for the choice only, keeps
the best `topk_group` of `n_group` expert groups, then the top `top_k` experts;
`expert_weights` are their sigmoid scores, renormalized when `norm_topk_prob` is set
and multiplied by `routed_scaling_factor`. The shared experts run on the mixture's
input after the routed experts, and the module returns the sum.
"""

from transformers.models.glm4_moe_lite.modeling_glm4_moe_lite import (
    Glm4MoeLiteAttention,
    Glm4MoeLiteDecoderLayer,
    Glm4MoeLiteMLP,
    Glm4MoeLiteMoE,
)

from nnterp.components import LatentAttention
from nnterp.families import deepseek_v3

RENAME = deepseek_v3.RENAME
#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = deepseek_v3.head_dim
qk_head_dim = deepseek_v3.qk_head_dim


ENVOYS = {
    Glm4MoeLiteDecoderLayer: deepseek_v3.Layer,
    Glm4MoeLiteAttention: LatentAttention,
    Glm4MoeLiteMLP: deepseek_v3.Mlp,
    Glm4MoeLiteMoE: deepseek_v3.Moe,
}
