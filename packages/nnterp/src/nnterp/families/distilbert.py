"""DistilBERT (`DistilBertForMaskedLM`, model type `distilbert`): a bidirectional post-LN encoder with its own block.

`h = post_attention_layernorm(x + self_attn(x)); out = output_layer_norm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `DistilBertForMaskedLM` by default, or bare
(`DistilBertModel`, `task="feature-extraction"`) for probing, and the same names
serve both (the trunk sits under `distilbert` in the first and is the root in the
second). Every position attends to every other one; padding is masked.

DistilBERT's block is BERT's arithmetic in its own modules, which need no
regrouping: the attention (`attention`, aliased `self_attn`, with `q_lin`, `k_lin`,
`v_lin` and `out_lin` aliased `q_proj`...`o_proj`) calls the shared attention
interface and returns the output projection, which is the term its add takes; the
block adds it to its input and norms the sum (`sa_layer_norm`, aliased
`post_attention_layernorm`); the feed-forward module (`ffn`, aliased `mlp`: `lin1`,
the activation, `lin2`, a dropout) returns what its add takes, and the block's
output norm (`output_layer_norm`) norms that sum into the block's output. So the
block is post-LN (`PostLNLayer`): `layer_mid == layer_input + attention_output` and
`layer_output == output_layer_norm(mlp_norm_output + mlp_output)`, bit for bit, with
no norm before the attention and no final norm.

The embedding module sums the token and position tables and norms the sum:
`token_embeddings` is the token table's output (`embed_tokens`), and block 0 reads
the normed sum. The masked-LM head is four modules on the root with no container,
which the masked-LM forward calls in turn: `vocab_transform` (a dense layer), the
activation (`activation`), `vocab_layer_norm` and `vocab_projector`. `lm_head` is
the first of them, `vocab_transform`, the module that reads the last block's output
(as BERT's head does); `lm_head_output` is read on `vocab_projector`, whose output is
the logits. The logit lens runs the four in that order on a stream, so the last
`layer_output` through it is the logits.
"""

from transformers.models.distilbert.modeling_distilbert import FFN, DistilBertSelfAttention, TransformerBlock

from nnterp.components import NO_FINAL_NORM, Attention, EProperty, LogitLens, Mlp, PostLNLayer, unavailable

ENCODER = True

RENAME = {
    "distilbert.embeddings.word_embeddings": "embed_tokens",
    "distilbert.transformer.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "transformer.layer": "layers",
    "vocab_transform": "lm_head",
    "attention": "self_attn",
    "sa_layer_norm": "post_attention_layernorm",
    "ffn.activation": "ffn.act_fn",
    "ffn": "mlp",
    "q_lin": "q_proj",
    "k_lin": "k_proj",
    "v_lin": "v_proj",
    "out_lin": "o_proj",
    "lin1": "up_proj",
    "lin2": "down_proj",
}

#: The block's output norm, as a path from the block: its output is the block's, `layer_output`.
_OUTPUT_NORM = "output_layer_norm"

#: The head's modules, in the order the masked-LM forward calls them: `lm_head` is the transform.
_HEAD = ("lm_head", "activation", "vocab_layer_norm", "vocab_projector")

final_norm_output = unavailable(NO_FINAL_NORM)
#: The head's transform, activation, norm and vocabulary projection; no final norm comes before them.
project_on_vocab = LogitLens(norm=False, head=_HEAD)
#: The vocabulary projection, the head's last module.
lm_head_output = EProperty("vocab_projector.output")


ENVOYS = {TransformerBlock: PostLNLayer, DistilBertSelfAttention: Attention, FFN: Mlp}
