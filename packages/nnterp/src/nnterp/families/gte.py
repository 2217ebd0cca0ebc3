"""GTE (`GteForMaskedLM`, model type `gte`): a bidirectional post-LN encoder with rotary positions and a gated MLP.

`h = post_attention_layernorm(x + self_attn(x)); out = post_mlp_layernorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `GteForMaskedLM` by default, or bare
(`GteModel`, `task="feature-extraction"`) for probing, and the same names serve both
(the trunk sits under `gte` in the first and is the root in the second). Every
position attends to every other one; padding is masked.

The block keeps the standard names and is post-LN (`PostLNLayer`): no norm before
the attention, `layer_mid == layer_input + attention_output` and `layer_output ==
post_mlp_layernorm(mlp_norm_output + mlp_output)`, bit for bit, and no final norm.
Each contribution passes a dropout module of the block on its way to the add; in
eval mode that is the same tensor, so `attention_output` and `mlp_output` are the
attention's and the MLP's outputs. The attention is Llama's without grouping (rotary
queries and keys), the MLP is gated, `down_proj(act_fn(gate_proj(x)) * up_proj(x))`.
The embedding module adds the token-type table (where the config has one) to the
token table's output and norms the sum: `token_embeddings` is the token table's
output (`embed_tokens`), and block 0 reads the normed sum. The head (`lm_head`) is a
transform (a dense layer, GELU, a LayerNorm) and the projection onto the vocabulary
(`lm_head.decoder`), so the logit lens is `lm_head` alone on a stream, and the last
`layer_output` through it is the logits.
"""

from transformers.models.gte.modeling_gte import GteAttention, GteLayer, GteMLP

from nnterp.components import NO_FINAL_NORM, Attention, Mlp, PostLNLayer, lm_head_only, unavailable

ENCODER = True

RENAME = {
    "gte.embeddings.word_embeddings": "embed_tokens",
    "gte.layers": "layers",
    "embeddings.word_embeddings": "embed_tokens",
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {GteLayer: PostLNLayer, GteAttention: Attention, GteMLP: Mlp}
