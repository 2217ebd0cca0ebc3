"""OLMo 2 (`Olmo2ForCausalLM`): a post-norm block, each sublayer's output normed before the add.

`h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h))`.

No norm feeds either sublayer: the attention reads the block input and the MLP the
stream after the attention add, so `attention_norm_output` and `mlp_norm_output` are
unavailable and `layer_mid` is what the MLP reads. The contributions are the
post-norms' outputs. The attention norms its queries and keys over all heads at once
(`q_norm`, `k_norm` on the projections' full width) before the rotary embedding.
"""

from transformers.models.olmo2.modeling_olmo2 import Olmo2Attention, Olmo2DecoderLayer, Olmo2MLP

from nnterp.components import PostNormLayer, SandwichAttention, SandwichMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {Olmo2DecoderLayer: PostNormLayer, Olmo2Attention: SandwichAttention, Olmo2MLP: SandwichMlp}
