"""EXAONE 4 (`Exaone4ForCausalLM`): a post-norm block, global blocks without rotary embedding.

`h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h))`.

No norm feeds either sublayer, so `attention_norm_output` and `mlp_norm_output` are
unavailable and `layer_mid` is what the MLP reads; the contributions are the
post-norms' outputs. The attention norms each head's queries and keys (`q_norm`,
`k_norm`); where the config sets a sliding window, only the sliding-window blocks
rotate them, and the global blocks (`layer_types`) attend without positions.
"""

from transformers.models.exaone4.modeling_exaone4 import Exaone4Attention, Exaone4DecoderLayer, Exaone4MLP

from nnterp.components import PostNormLayer, SandwichAttention, SandwichMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(PostNormLayer):
    """EXAONE 4's post-norm block; the post-norm base holds."""


class Attention(SandwichAttention):
    """EXAONE 4's attention; the shared eager interface after the per-head norms, the contribution post-normed."""


class Mlp(SandwichMlp):
    """EXAONE 4's gated MLP; the contribution post-normed."""


ENVOYS = {Exaone4DecoderLayer: Layer, Exaone4Attention: Attention, Exaone4MLP: Mlp}
