"""ELECTRA (`ElectraForMaskedLM`, model type `electra`): the generator, a BERT-layout post-LN encoder with its own head.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `ElectraForMaskedLM` (ELECTRA's generator) by
default, or bare (`ElectraModel`, `task="feature-extraction"`), and the same names
serve both (the trunk sits under `electra` in the first and is the root in the
second). A checkpoint saved as `ElectraForCausalLM` loads the same way. Every position
attends to every other one; padding is masked.

The blocks are BERT's (`nnterp.components.bert_block`), regrouped at load: `self_attn`
is the attention, `mlp` the feed-forward container, and the block is post-LN, with no
norm before the attention and no final norm. The embedding module sums the token,
segment and position tables and norms the sum, all `embedding_size` wide:
`token_embeddings` is the token table's output (`embed_tokens`). Where
`embedding_size` differs from `hidden_size` (the released generators) the trunk
projects the normed sum onto the stream (`electra.embeddings_project`) before block 0;
the token table is then narrower than the stream, so `token_embeddings` is
unavailable there, and the stream starts at `layers[0].layer_input`.

The head is two modules of the root: `generator_predictions` (aliased `lm_head`, a
dense layer down to `embedding_size`, GELU, a LayerNorm) and `generator_lm_head`, the
projection onto the vocabulary (tied to the token table). `lm_head_output` is read on
`generator_lm_head`, whose output is the logits, and the logit lens runs both on a
stream.
"""

from typing import Any

from transformers.models.electra.modeling_electra import ElectraAttention, ElectraEncoder, ElectraLayer, ElectraModel

from nnterp.components import NO_FINAL_NORM, EProperty, LogitLens, PostLNLayer, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertAttention, BertMlp, BertStack, FeedForward

ENCODER = True

RENAME = {
    "electra.embeddings.word_embeddings": "embed_tokens",
    "electra.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "generator_predictions": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)


def _narrow_embeddings(model: Any) -> str | None:
    """Why `token_embeddings` is unavailable: a token table narrower than the stream; `None` where it is as wide."""
    config = model._module.config
    if config.embedding_size == config.hidden_size:
        return None
    return (
        f"the token table is embedding_size={config.embedding_size} wide, narrower than the stream "
        f"(hidden_size={config.hidden_size}): block 0 reads electra.embeddings_project's projection of the normed "
        "embedding sum, layers[0].layer_input"
    )


token_embeddings = EProperty("embed_tokens.output", unavailable=_narrow_embeddings)

#: The vocabulary projection after the generator's prediction head.
lm_head_output = EProperty("generator_lm_head.output")

#: The prediction head (`lm_head`) then the vocabulary projection (`generator_lm_head`), on the stream itself.
project_on_vocab = LogitLens(norm=False, head=("lm_head", "generator_lm_head"))

ENVOYS = {
    ElectraModel: BertStack,
    ElectraEncoder: BertStack,
    ElectraLayer: PostLNLayer,
    ElectraAttention: BertAttention,
    FeedForward: BertMlp,
}
