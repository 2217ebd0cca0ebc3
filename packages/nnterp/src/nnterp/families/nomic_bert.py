"""NomicBERT (`NomicBertForMaskedLM`, model type `nomic_bert`): GTE's post-LN block under BERT's masked-LM head.

`h = post_attention_layernorm(x + self_attn(x)); out = post_mlp_layernorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `NomicBertForMaskedLM` by default, or bare
(`NomicBertModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `nomic_bert` in the first and is the root in the second).
Every position attends to every other one; padding is masked.

The block is GTE's (`nnterp.families.gte`): standard names, post-LN (`PostLNLayer`),
rotary attention with no biases and a gated MLP, `layer_mid == layer_input +
attention_output` and `layer_output == post_mlp_layernorm(mlp_norm_output +
mlp_output)` bit for bit, and no final norm; the dropout before each add is the
identity in eval mode, so the contributions are the attention's and the MLP's
outputs. The embedding module adds the token-type table to the token table's output
and norms the sum: `token_embeddings` is the token table's output (`embed_tokens`),
and block 0 reads the normed sum. The head is BERT's (`cls`, aliased `lm_head`): a
transform (a dense layer, the activation, a LayerNorm) and the projection onto the
vocabulary (`lm_head.predictions.decoder`), so the logit lens is `lm_head` alone on a
stream, and the last `layer_output` through it is the logits.
"""

from transformers.models.nomic_bert.modeling_nomic_bert import NomicBertAttention, NomicBertLayer, NomicBertMLP

from nnterp.components import NO_FINAL_NORM, Attention, Mlp, PostLNLayer, lm_head_only, unavailable

ENCODER = True

RENAME = {
    "nomic_bert.embeddings.word_embeddings": "embed_tokens",
    "nomic_bert.layers": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "cls": "lm_head",
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {NomicBertLayer: PostLNLayer, NomicBertAttention: Attention, NomicBertMLP: Mlp}
