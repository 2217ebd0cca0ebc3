"""Kosmos-2.5's text decoder (`Kosmos2_5TextForCausalLM`, model type `kosmos_2_5_text_model`).

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
`mlp(y) = down_proj(ffn_layernorm(act_fn(up_proj(y))))`

Kosmos-2's pre-LN block (`kosmos_2_text_model`), with the same aliases and the same
feed-forward path: `ffn_layernorm` norms the activation inside the module, so
`mlp_output` is the module's output and `mlp_neurons` the normed activation, not
`mlp_activation`. The attention differs: it has no norm between the merged heads and
the output projection, so `attention_premix` is the head outputs side by side, and
it scales the queries by `head_dim ** -0.5` before the interface, which it calls with
a scaling of one, so `attention_queries` are the scaled queries. The embedding
multiplies the token embeddings by `sqrt(embed_dim)` and adds sinusoidal positions
counted from the pad id plus a learned segment embedding (`segment_emb`), so block
0's input is neither the token table's rows nor their scaled copy.

The `Kosmos2_5ForConditionalGeneration` wrapper (`kosmos-2.5`) is served by
`nnterp.families.kosmos_2_5`. No auto class builds the text model alone: a text-only
model is `Kosmos2_5TextForCausalLM` loaded from the wrapper checkpoint with
`key_mapping={r"^text_model\\.": ""}` (the module's `_TEXT_KEY_MAPPING`).
"""

from transformers.models.kosmos2_5.modeling_kosmos2_5 import (
    Kosmos2_5TextAttention,
    Kosmos2_5TextBlock,
    Kosmos2_5TextFFN,
)

from nnterp.components import Attention, Layer
from nnterp.families import kosmos_2_text_model

RENAME = {
    # Kosmos2_5TextForCausalLM, the text model alone.
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.layer_norm": "norm",
    # The text block, as Kosmos-2 names it.
    "self_attn_layer_norm": "input_layernorm",
    "final_layer_norm": "post_attention_layernorm",
    "ffn": "mlp",
    "fc1": "up_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
    "out_proj": "o_proj",
}

#: The `key_mapping` that loads a wrapper checkpoint's text weights into `Kosmos2_5TextForCausalLM`.
_TEXT_KEY_MAPPING = {r"^text_model\.": ""}

#: The feed-forward width, the text config's `ffn_dim`, read as on Kosmos-2.
intermediate_size = kosmos_2_text_model.intermediate_size


ENVOYS = {
    Kosmos2_5TextBlock: Layer,
    Kosmos2_5TextAttention: Attention,
    Kosmos2_5TextFFN: kosmos_2_text_model.Mlp,
}
