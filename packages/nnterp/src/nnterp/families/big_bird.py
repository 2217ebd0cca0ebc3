"""BigBird (`BigBirdForMaskedLM`, model type `big_bird`): BERT with a sparse attention option, post-LN, bidirectional.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `BigBirdForMaskedLM` by default, or bare
(`BigBirdModel`, `task="feature-extraction"`) for probing, with the same names (the
trunk sits under `bert` in the first and is the root in the second). Padding is
masked.

The config's `attention_type` chooses the attention's inner `self` module.
Under `original_full` it is BERT's full attention: every position attends to every
other one, and the interior is read at the operations of its own forward
(`BertOwnAttention`), under every attention implementation. Under `block_sparse`
(the default of the released checkpoints) the sequence is cut into blocks of
`block_size` tokens, and each query block attends to the first and last blocks
(global), its neighbours (a sliding window of three blocks) and `num_random_blocks`
random blocks, while the first and last query blocks attend to everything; the
pattern is computed block by block and never exists as one `[query, key]` matrix,
so every interior value of the attention is unavailable, with the reason, whenever
the config selects it: load with `attention_type="original_full"` to read them. A
block-sparse model also switches itself, and stays switched, to full attention the
first time it reads a sequence of at most `(5 + 2 * num_random_blocks) *
block_size` tokens, replacing the inner `self` module. The block's other values
(the stream, `attention_output`, the MLP's) do not depend on the choice.

The blocks are BERT's (`nnterp.components.bert_block`), post-LN, regrouped so that
`self_attn` is the attention and `mlp` the feed-forward container, with no norm
before the attention and no final norm. The embedding module sums the token,
segment and position tables and norms the sum: block 0 reads the normed sum, and
`token_embeddings` is the token table's output (`embed_tokens`). The head (`cls`,
aliased `lm_head`) is a transform and the projection onto the vocabulary, read on
the last `layer_output`, so the logit lens is `lm_head` alone.
"""

from transformers.models.big_bird.modeling_big_bird import (
    BigBirdAttention,
    BigBirdEncoder,
    BigBirdLayer,
    BigBirdModel,
)

from nnterp.components import NO_FINAL_NORM, PostLNLayer, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertOwnAttention, BertStack, FeedForward
from nnterp.components.layer import returns_tuple_by_annotation

ENCODER = True

RENAME = {
    "bert.embeddings.word_embeddings": "embed_tokens",
    "bert.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

_BLOCK_SPARSE = (
    "this config selects attention_type='block_sparse', which computes the pattern block by block (global, "
    "sliding and random blocks) and never holds a full [query, key] pattern; load with "
    "attention_type='original_full' to read the attention's interior"
)


class Attention(BertOwnAttention):
    """BigBird's attention: BERT's own-arithmetic interior under full attention, none under block-sparse attention."""

    def off_interface(self) -> str | None:
        if self._module.config.attention_type == "block_sparse":
            return _BLOCK_SPARSE
        return super().off_interface()


class Layer(PostLNLayer):
    """BigBird's regrouped post-LN block."""

    returns_tuple = returns_tuple_by_annotation(BigBirdLayer)


ENVOYS = {
    BigBirdModel: BertStack,
    BigBirdEncoder: BertStack,
    BigBirdLayer: Layer,
    BigBirdAttention: Attention,
    FeedForward: BertMlp,
}
