"""HY-V4 (`HYV4ForCausalLM`): hyper-connections without a mixing matrix around a gated latent attention.

The model carries `hc_mult` parallel copies of the residual stream, `S`
(`[batch, seq, streams, hidden_size]`, the embedding copied into each). Before each
sublayer a hyper-connection module (`attn_hc`, `ffn_hc`) reads every stream and
returns a weight per stream `post` and the streams collapsed into one by another
weight per stream. With `collapse_a`, `post_a` from `attn_hc(x)` and `collapse_m`,
`post_m` from `ffn_hc(h)` a block is

`h = post_a * self_attn(input_layernorm(collapse_a)) + x;
out = post_m * mlp(post_attention_layernorm(collapse_m)) + h`,

each stream keeping itself and taking the contribution with its own weight.

Decisions, stated as the values serve them:

- `layer_input`, `layer_mid` (the input of `ffn_hc`) and `layer_output` are every
  stream, `Streams`. `steer` adds to every stream, and `skip_layers` hands on every
  stream (a `skip_with` of `[batch, seq, hidden_size]` is copied into every stream).
  The block returns its indexer's top-k choice beside the streams for a later
  `shared` block (`indexer_types`); a skipped block hands on none, so the block
  before a `shared` one cannot be skipped.
- `attention_output` and `mlp_output` stay `Residual`. `attention_post` and
  `mlp_post` are `StreamWeights`; `attention_comb` and `mlp_comb` are unavailable,
  since the streams come back unmixed. The contribution identity reads
  `layer_mid == attention_post[..., None] * attention_output[..., None, :] +
  layer_input` and the same with the MLP's values from `layer_mid` to
  `layer_output`, bit for bit.
- `project_on_vocab` collapses a `Streams` value with the model's `hc_head` (so on
  the last block's `layer_output` it gives the logits bit for bit) and norms and
  projects a `Residual` value as it stands.

The attention is DeepSeek's latent attention (see `nnterp.components.latent`) with
a sink logit per head that joins the softmax and is dropped after it, so the
pattern's rows sum to less than one. Its mask is narrowed to the `index_topk` keys
an indexer picks: a `full` block runs its own, a `shared` block reuses the previous
block's choice. The heads' outputs are gated per channel by `sigmoid(gate_proj(x))`
before `o_proj`, so `attention_premix` is the gated heads. The first
`mlp_layer_types` `dense` blocks carry a gated MLP, the `sparse` ones a mixture:
a sigmoid router with a correction bias for the choice and grouped top-k,
`expert_weights` the chosen scores renormalized and multiplied by
`routed_scaling_factor`, experts with a gate and an up projection clamped at
`swiglu_limit`, and shared experts added after them.
"""

from transformers.models.hy_v4.modeling_hy_v4 import HYV4MLP, HYV4Attention, HYV4DecoderLayer, HYV4MoE

from nnterp.components import (
    HyperConnectionLayer,
    LatentAttention,
    LogitLens,
    Mlp,
    Moe,
    SinkAttention,
    collapse_streams,
    latent_head_dim,
    latent_qk_head_dim,
)

__all__ = [
    "ENVOYS",
    "RENAME",
    "Attention",
    "Layer",
    "Mlp",
    "Moe",
    "collapse_streams",
    "head_dim",
    "project_on_vocab",
    "qk_head_dim",
]


RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys', as on DeepSeek-V3.
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim

#: The lens collapses the streams through `hc_head` first, as DeepSeek-V4's head does.
project_on_vocab = LogitLens(streams=collapse_streams)


class Moe(Moe):
    """HY-V4's mixture, DeepSeek-V3's: a grouped sigmoid router with a correction bias (`gate`), shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


class Layer(HyperConnectionLayer):
    """HY-V4's block: hyper-connections without a mixing matrix; it returns the streams and its top-k choice."""

    COMB = False
    returns_tuple = True

    def skip_with(self, stream):
        """Every stream, with no top-k choice for a later block to reuse."""
        return (*super().skip_with(stream), None)


class Attention(SinkAttention, LatentAttention):
    """HY-V4's latent attention: a sink column per head, an indexer's mask, the heads gated before `o_proj`."""


ENVOYS = {
    HYV4DecoderLayer: Layer,
    HYV4Attention: Attention,
    HYV4MLP: Mlp,
    HYV4MoE: Moe,
}
