"""Jina embeddings v3 (`JinaEmbeddingsV3ForMaskedLM`, model type `jina_embeddings_v3`): XLM-R with rotary positions.

`h = post_attention_layernorm(x + self_attn(x)); out = post_mlp_layernorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `JinaEmbeddingsV3ForMaskedLM` by default, or
bare (`JinaEmbeddingsV3Model`, `task="feature-extraction"`) for probing, and the same
names serve both (the trunk sits under `roberta` in the first and is the root in the
second). Every position attends to every other one; padding is masked. Transformers'
class is the encoder alone: the LoRA adapters and task ids of the Hub's remote code
are not part of it, so no value depends on a task.

The block is GTE's layout (`nnterp.families.gte`) with XLM-R's plain MLP: standard
names, post-LN (`PostLNLayer`), rotary attention with biases, `layer_mid ==
layer_input + attention_output` and `layer_output == post_mlp_layernorm(mlp_norm_output
+ mlp_output)` bit for bit, and no final norm; the dropout before each add is the
identity in eval mode, so the contributions are the attention's and the MLP's
outputs. The MLP is `fc1` (aliased `up_proj`), the activation (`act_fn`) and `fc2`
(`down_proj`), with no gate, so the neurons are the activation's output. The
embedding module adds the token-type table to the token table's output and norms the
sum: `token_embeddings` is the token table's output (`embed_tokens`), and block 0
reads the normed sum. The head (`lm_head`) is a transform (a dense layer, GELU, a
LayerNorm) and the projection onto the vocabulary (`lm_head.decoder`), so the logit
lens is `lm_head` alone on a stream, and the last `layer_output` through it is the
logits.
"""

from transformers.models.jina_embeddings_v3.modeling_jina_embeddings_v3 import (
    JinaEmbeddingsV3Attention,
    JinaEmbeddingsV3Layer,
    JinaEmbeddingsV3MLP,
)

from nnterp.components import NO_FINAL_NORM, Attention, Mlp, PostLNLayer, lm_head_only, unavailable

ENCODER = True

RENAME = {
    "roberta.embeddings.word_embeddings": "embed_tokens",
    "roberta.layers": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "mlp.fc1": "mlp.up_proj",
    "mlp.fc2": "mlp.down_proj",
    "mlp.activation_fn": "mlp.act_fn",
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {JinaEmbeddingsV3Layer: PostLNLayer, JinaEmbeddingsV3Attention: Attention, JinaEmbeddingsV3MLP: Mlp}
