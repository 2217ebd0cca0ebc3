"""UltraBERT (`UltrabertForMaskedLM`, model type `ultrabert`): a bidirectional Llama-style encoder under a two-layer head.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `UltrabertForMaskedLM` by default, or bare
(`UltrabertModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `model` in the first and is the root in the second).
Padding is masked.

The blocks are EuroBERT's, Llama's names and arithmetic (RMS norms, a gated SiLU MLP,
rotary embeddings) with no causal mask. Each block attends globally or within a
band per `layer_types`: a sliding block lets a query weigh the keys at most
`sliding_window` positions before or after it, and each kind of block takes its
own rotary base. A final RMS norm (`model.norm`, aliased `norm`) precedes the head
(`head`, aliased `lm_head`): `linear1`, GELU, `linear2`, GELU, then the projection onto
the vocabulary (`head.decoder`); the model's own `decoder` after it is an identity,
so the head's output is the logits and the logit lens is the final norm then
`lm_head`.
"""

from transformers.models.ultrabert.modeling_ultrabert import UltrabertAttention, UltrabertDecoderLayer, UltrabertMLP

from nnterp.components import Layer, Mlp
from nnterp.components.two_sided_window import TwoSidedWindowAttention

ENCODER = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "head": "lm_head",
}

ENVOYS = {UltrabertDecoderLayer: Layer, UltrabertAttention: TwoSidedWindowAttention, UltrabertMLP: Mlp}
