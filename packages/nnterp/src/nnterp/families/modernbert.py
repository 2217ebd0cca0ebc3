"""ModernBERT (`ModernBertForMaskedLM`, model type `modernbert`): a bidirectional pre-norm encoder, some blocks windowed.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `ModernBertForMaskedLM` by default, or bare
(`ModernBertModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `model` in the first and is the root in the second).
Every position attends to every other one; padding is masked. The transformers
releases served run every attention on the padded batch (no unpadding), so a padded
position keeps its row in every value.

The block is the ModernBERT decoder's, bidirectional: pre-norm, so
`layer_input + attention_output + mlp_output == layer_output` bit for bit. Block 0's
attention norm is an identity, since the embedding module norms the token embeddings
before block 0 (`token_embeddings` is the table's output, before that norm). The MLP
is one fused input projection `Wi` split into an input and a gate, `act(input) *
gate`, then `Wo`. A block whose `layer_types` entry is `sliding_attention` weighs only
the keys within `config.sliding_window` positions of the query, on both sides
(`attention_window` counts them); the other blocks attend globally. The trunk ends in
a final norm (`final_norm`, aliased `norm`).

The head is the ModernBERT decoder's: `head` (aliased `lm_head`) is a prediction head
(`dense`, an activation, a LayerNorm) mapping the final norm's output to another
stream-wide vector, and `decoder` projects that onto the vocabulary, so
`lm_head_output` is read on `decoder` and `project_on_vocab` runs the final norm,
`lm_head` and `decoder`, as the model does.
"""

from transformers.models.modernbert.modeling_modernbert import (
    ModernBertAttention,
    ModernBertEncoderLayer,
    ModernBertMLP,
)

from nnterp.components import Layer, Mlp
from nnterp.components.two_sided_window import TwoSidedWindowAttention
from nnterp.families.modernbert_decoder import lm_head_output, project_on_vocab

__all__ = ["BLOCK_RENAME", "ENVOYS", "RENAME", "WindowedAttention", "lm_head_output", "project_on_vocab"]

ENCODER = True

#: The block's names, keyed from the block (the decoder's spelling).
BLOCK_RENAME = {
    "attn": "self_attn",
    "attn_norm": "input_layernorm",
    "mlp_norm": "post_attention_layernorm",
    "attn.Wo": "attn.o_proj",
    "mlp.Wo": "mlp.down_proj",
    "mlp.act": "mlp.act_fn",
}

RENAME = {
    "model.embeddings.tok_embeddings": "embed_tokens",
    "model.layers": "layers",
    "model.final_norm": "norm",
    "embeddings.tok_embeddings": "embed_tokens",
    "final_norm": "norm",
    "head": "lm_head",
    **BLOCK_RENAME,
}


#: ModernBERT's attention: its window, on a `sliding_attention` block, reaches both ways from the query.
WindowedAttention = TwoSidedWindowAttention


ENVOYS = {ModernBertEncoderLayer: Layer, ModernBertAttention: WindowedAttention, ModernBertMLP: Mlp}
