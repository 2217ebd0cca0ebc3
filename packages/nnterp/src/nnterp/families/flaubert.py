"""FlauBERT (`FlaubertWithLMHeadModel`, model type `flaubert`): XLM's architecture as a bidirectional encoder.

`h = post_attention_layernorm(x + self_attn(x)); out = layer_norm2(h + mlp(h))`

An encoder (`ENCODER`): it loads under `FlaubertWithLMHeadModel` by default, or bare
(`FlaubertModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `transformer` in the first and is the root in the
second). FlauBERT's checkpoints are not causal (`causal` is false), so every
position attends to every other one; padding is masked.

The trunk, the attention and the MLP are XLM's, copied into FlauBERT's own
modeling file, so the family takes XLM's declarations (`nnterp.families.xlm`): the
trunk holds its blocks in four parallel lists, which the trunk's envoy gathers
into one container per block at load (`transformer.layers[i]`, with `attention`
aliased `self_attn`, `layer_norm1` aliased `post_attention_layernorm`, `ffn`
aliased `mlp`, and `layer_norm2`); the forward still calls the same modules in the
same order, so every number is the model's own, and only the parameter names move.
The block is post-LN: `layer_mid == layer_input + attention_output` and
`layer_output == layer_norm2(mlp_norm_output + mlp_output)`, bit for bit, and a
padded position of `layer_output` reads zero (the trunk multiplies the stream by
the padding mask in place after `layer_norm2`). The attention does its own
arithmetic, read where XLM's is. There is no final norm: the head
(`pred_layer.proj`, aliased `lm_head`) reads the last `layer_output`.

FlauBERT's trunk also has a pre-norm variant (`pre_norm=True`), whose forward
indexes its cache per block, which no release of the matrix supports (it raises
`TypeError: 'EncoderDecoderCache' object is not subscriptable` before any block
runs); the family serves the post-LN blocks every runnable checkpoint has.
`layerdrop` acts in training only.
"""

from transformers.models.flaubert.modeling_flaubert import FlaubertModel, MultiHeadAttention, TransformerFFN

from nnterp.components import NO_FINAL_NORM, lm_head_only, unavailable
from nnterp.families import xlm

ENCODER = True

RENAME = {
    **xlm.RENAME,
    "embeddings": "embed_tokens",
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

intermediate_size = xlm.intermediate_size

ENVOYS = {FlaubertModel: xlm.Trunk, xlm.XLMBlock: xlm.Layer, MultiHeadAttention: xlm.Attention, TransformerFFN: xlm.Mlp}
