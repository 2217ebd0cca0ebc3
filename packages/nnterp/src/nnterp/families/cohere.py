"""Cohere (`CohereForCausalLM`, Command-R): a parallel block with one norm, and scaled logits.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

One bias-free LayerNorm feeds both sublayers, so `mlp_norm_output` is the
attention's normed input and `layer_mid` is unavailable. The block adds
`(x + attn) + mlp`, the identity's own order, so the contribution identity holds
bit for bit. The attention is the shared eager interface; with `use_qk_norm` the
queries and keys pass per-head LayerNorms before the rotary embedding. The MLP is
Llama's gated one. The model multiplies the head's output by `logit_scale`, which
`project_on_vocab` does too.
"""

from transformers.models.cohere.modeling_cohere import CohereAttention, CohereDecoderLayer, CohereMLP

from nnterp.components import Attention, LogitLens, Mlp, ParallelLayer, module_attribute

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


project_on_vocab = LogitLens(multiply=module_attribute("logit_scale"))


ENVOYS = {CohereDecoderLayer: ParallelLayer, CohereAttention: Attention, CohereMLP: Mlp}
