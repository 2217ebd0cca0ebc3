"""DeepSeek-V4 (`DeepseekV4ForCausalLM`): hyper-connections around a shared-key attention and a mixture.

The model carries `hc_mult` parallel copies of the residual stream, `S`
(`[batch, seq, streams, hidden_size]`, the embedding copied into each). Before each
sublayer a hyper-connection module (`attn_hc`, `ffn_hc`) reads every stream and
returns a weight per stream `post`, a doubly stochastic stream-mixing matrix `comb`
and the streams collapsed into one by a third weight per stream. With `collapse_a`,
`post_a`, `comb_a` from `attn_hc(x)` and `collapse_m`, `post_m`, `comb_m` from
`ffn_hc(h)` a block is

`h = post_a * self_attn(input_layernorm(collapse_a)) + comb_a^T @ x;
out = post_m * mlp(post_attention_layernorm(collapse_m)) + comb_m^T @ h`,

the contribution spread over the streams by `post` and the streams mixed by `comb`.

Decisions, stated as the values serve them:

- `layer_input`, `layer_mid` (the input of `ffn_hc`) and `layer_output` are every
  stream, `Streams`, with the stream axis third as the model holds it. `steer` adds
  to every stream, and `skip_layers` hands on every stream (a `skip_with` of
  `[batch, seq, hidden_size]` is copied into every stream).
- `attention_output` and `mlp_output` stay `Residual`: what the sublayer returns,
  before the spread. `attention_post` and `mlp_post` are `StreamWeights`,
  `attention_comb` and `mlp_comb` `StreamMixing`, and `attention_collapsed` and
  `mlp_collapsed` the collapsed streams the norms read. The contribution identity
  reads `layer_mid == attention_post[..., None] * attention_output[..., None, :] +
  attention_comb^T @ layer_input`, and the same with the MLP's values from
  `layer_mid` to `layer_output`, bit for bit.
- `project_on_vocab` collapses a `Streams` value with the model's `hc_head` (so on
  the last block's `layer_output` it gives the logits bit for bit) and norms and
  projects a `Residual` value as it stands.

The attention has one key/value head whose projection (`kv_proj`) is read as both
the keys and the values; its queries go through a low-rank projection with a norm
(`q_a_proj`, `q_a_norm`, `q_b_proj`) and an unweighted per-head norm, rotary
embedding rotates the last `partial_rotary_factor` of each head, and each head has
a sink logit that joins the softmax and is dropped after it, so the pattern's rows
sum to less than one. Blocks of `layer_types` `compressed_sparse_attention` and
`heavily_compressed_attention` append compressed entries (a gated pooling of every
`compress_rates` tokens, the sparse kind choosing among them with its own indexer)
to the key axis after the sequence, so their keys, values and pattern are longer
than the sequence. The heads' outputs are rotated back on the rotary slice and
mixed by a grouped low-rank projection (`o_a_proj`, `o_b_proj`), so there is no
single output projection.

Every block's MLP is a mixture with a shared expert. Its router (`gate`) scores the
logits with `sqrt(softplus(.))`; on `mlp_layer_types` `moe` blocks it picks the top
`top_k` scores plus a correction bias, on `hash_moe` blocks it looks the experts up
per token id (`tid2eid`), whatever the logits. The chosen scores, renormalized and
multiplied by `routed_scaling_factor`, weight the experts, whose gated activation
clamps the gate and the up projection at `swiglu_limit`.
"""

from transformers.models.deepseek_v4.modeling_deepseek_v4 import (
    DeepseekV4Attention,
    DeepseekV4DecoderLayer,
    DeepseekV4MLP,
    DeepseekV4SparseMoeBlock,
)

from nnterp.components import (
    HyperConnectionLayer,
    LogitLens,
    Mlp,
    Moe,
    SinkAttention,
    collapse_streams,
    unavailable,
)

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Attention(SinkAttention):
    """DeepSeek-V4's attention: one shared key/value head, a sink column per head, compressed entries appended."""

    attention_premix = unavailable(
        "the heads' outputs are rotated back on their rotary slice and then mixed by a grouped low-rank "
        "projection (o_a_proj, o_b_proj): no single output projection takes every head side by side"
    )


class Moe(Moe):
    """DeepSeek-V4's mixture: a `sqrt(softplus)` router with a correction bias or a token-id table, shared experts."""

    SCORING = "sqrtsoftplus"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


project_on_vocab = LogitLens(streams=collapse_streams)


ENVOYS = {
    DeepseekV4DecoderLayer: HyperConnectionLayer,
    DeepseekV4Attention: Attention,
    DeepseekV4MLP: Mlp,
    DeepseekV4SparseMoeBlock: Moe,
}
