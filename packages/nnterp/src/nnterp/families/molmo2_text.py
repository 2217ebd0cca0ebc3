"""Molmo2's text model (`Molmo2TextModel`, model type `molmo2_text`).

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Llama's block with OLMo 2's attention: `q_norm` and `k_norm` norm the queries and keys
before the rotary embedding, per head (`qk_norm_type="qwen3"`, the released checkpoints')
or over all heads at once (`"olmo"`), so `attention_queries` and `attention_keys` are
normed and rotated, as the interface receives them. The MLP is gated. transformers has
no causal-LM class for `molmo2_text`: the text model is served only inside its wrapper.
Its embedding table holds `vocab_size + additional_vocab_size` rows (the image marker
tokens sit past the head's vocabulary).

The `Molmo2ForConditionalGeneration` wrapper (`molmo2`) is served by
`nnterp.families.molmo2`.
"""

from transformers.models.molmo2.modeling_molmo2 import Molmo2Attention, Molmo2DecoderLayer, Molmo2MLP

from nnterp.components import Attention, Layer, Mlp

# The text model alone already names its embedding, blocks and final norm as nnterp does.
RENAME: dict[str, str] = {}


ENVOYS = {
    Molmo2DecoderLayer: Layer,
    Molmo2Attention: Attention,
    Molmo2MLP: Mlp,
}
