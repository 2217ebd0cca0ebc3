"""EuroBERT (`EuroBertForMaskedLM`, model type `eurobert`): Llama's block as a bidirectional encoder.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `EuroBertForMaskedLM` by default, or bare
(`EuroBertModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `model` in the first and is the root in the second, where
its modules already have the standard names). The blocks are Llama's, pre-norm with
RMSNorm, grouped-query attention with rotary positions and a gated MLP, except that
every position attends to every other one; padding is masked. So
`layer_input + attention_output + mlp_output == layer_output` bit for bit. The trunk
ends in a final norm (`norm`), and the head is one projection onto the vocabulary
(`lm_head`), so the logit lens is the final norm then `lm_head`, as on Llama.
"""

from transformers.models.eurobert.modeling_eurobert import EuroBertAttention, EuroBertDecoderLayer, EuroBertMLP

from nnterp.components import Attention, Layer, Mlp
from nnterp.families import llama

ENCODER = True

RENAME = llama.RENAME

ENVOYS = {
    EuroBertDecoderLayer: Layer,
    EuroBertAttention: Attention,
    EuroBertMLP: Mlp,
}
