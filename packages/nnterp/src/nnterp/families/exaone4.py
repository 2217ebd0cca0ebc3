"""EXAONE 4 (`Exaone4ForCausalLM`): a post-norm block, global blocks without rotary embedding.

`h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h))`.

No norm feeds either sublayer, so `attention_norm_output` and `mlp_norm_output` are
unavailable and `layer_mid` is what the MLP reads; the contributions are the
post-norms' outputs. The attention norms each head's queries and keys (`q_norm`,
`k_norm`); where the config sets a sliding window, only the sliding-window blocks
rotate them, and the global blocks (`layer_types`) attend without positions.

The vision-language wrapper over an EXAONE 4 text model, EXAONE 4.5, is a module of its
own that composes this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.exaone4.modeling_exaone4 import Exaone4Attention, Exaone4DecoderLayer, Exaone4MLP

from nnterp.components import PostNormLayer, SandwichAttention, SandwichMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    Exaone4DecoderLayer: PostNormLayer,
    Exaone4Attention: SandwichAttention,
    Exaone4MLP: SandwichMlp,
}
