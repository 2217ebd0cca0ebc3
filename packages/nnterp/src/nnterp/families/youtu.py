"""Youtu (`YoutuForCausalLM`): Llama's block around a latent (multi-head latent) attention.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention projects the queries through a low-rank `q_a_proj` / `q_a_layernorm` /
`q_b_proj` path and the keys and values through one shared latent
(`kv_a_proj_with_mqa`, `kv_a_layernorm`, `kv_b_proj`), which it expands to one key and
one value per query head before the shared interface. So the keys and values have
`num_heads` heads, the query/key width `qk_head_dim` is `qk_nope_head_dim +
qk_rope_head_dim` (the rotary part last), and the value and head-output width
`head_dim` is `v_head_dim`. The values are one half of a `split` of the expanded
latent, which torch refuses to edit in place, so they are served as a copy that is
swapped back into the call.
"""

from transformers.models.youtu.modeling_youtu import YoutuAttention, YoutuDecoderLayer, YoutuMLP

from nnterp.components import LatentAttention, Layer, Mlp, latent_head_dim, latent_qk_head_dim
from nnterp.components.latent import split_latent_values

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Attention(LatentAttention):
    """Youtu's latent attention; the shared eager interface on the expanded keys and values."""

    attention_values = split_latent_values()


head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim


ENVOYS = {YoutuDecoderLayer: Layer, YoutuAttention: Attention, YoutuMLP: Mlp}
