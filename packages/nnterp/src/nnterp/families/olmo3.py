"""OLMo 3 (`Olmo3ForCausalLM`): OLMo 2's post-norm block with sliding-window blocks.

`h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h))`.

No norm feeds either sublayer, so `attention_norm_output` and `mlp_norm_output` are
unavailable and `layer_mid` is what the MLP reads; the contributions are the
post-norms' outputs. The attention norms its queries and keys over all heads at once
before the rotary embedding. `layer_types` makes most blocks sliding-window ones,
whose rotary base is their own.
"""

from transformers.models.olmo3.modeling_olmo3 import Olmo3Attention, Olmo3DecoderLayer, Olmo3MLP

from nnterp.components import PostNormLayer, SandwichAttention, SandwichMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {Olmo3DecoderLayer: PostNormLayer, Olmo3Attention: SandwichAttention, Olmo3MLP: SandwichMlp}
