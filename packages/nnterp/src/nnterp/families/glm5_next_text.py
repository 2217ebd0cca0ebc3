"""GLM-5.3-Flash's text model (`Glm5NextTextModel`), its blocks inside hyper-connections.

A hybrid inside hyper-connections. The model carries `hc_mult` parallel copies of the
residual stream, `S` (`[batch, seq, streams, hidden_size]`, the embedding copied into
each). Before each sublayer a hyper-connection module (`attn_hc`, `ffn_hc`) reads every
stream and returns a weight per stream `post`, a doubly stochastic stream-mixing
matrix `comb` and the streams collapsed into one by a third weight per stream,
DeepSeek-V4's. With `collapse_a`, `post_a`, `comb_a` from `attn_hc(x)` and
`collapse_m`, `post_m`, `comb_m` from `ffn_hc(h)` a block is

`h = post_a * mixer(input_layernorm(collapse_a)) + comb_a^T @ x;
out = post_m * mlp(post_attention_layernorm(collapse_m)) + comb_m^T @ h`,

with `mixer` the block's `self_attn` or `linear_attn`. After the last block the
model's `hc_head` averages the streams (an unweighted mean, unlike DeepSeek-V4's) and
the final norm reads that one stream.

Decisions, stated as the values serve them:

- `layer_input`, `layer_mid` (the input of `ffn_hc`) and `layer_output` are every
  stream, `Streams`, with the stream axis third as the model holds it. `steer` adds
  to every stream, and `skip_layers` hands on every stream (a `skip_with` of
  `[batch, seq, hidden_size]` is copied into every stream).
- `attention_output` and `mlp_output` stay `Residual`: what the sublayer returns,
  before the spread; `attention_post`, `mlp_post`, `attention_comb`, `mlp_comb`,
  `attention_collapsed` and `mlp_collapsed` are the hyper-connections' values, as
  DeepSeek-V4 serves them.
- `project_on_vocab` collapses a `Streams` value with the model's `hc_head` (so on
  the last block's `layer_output` it gives the logits bit for bit) and norms and
  projects a `Residual` value as it stands.

`config.layer_types` gives each block one mixer under the native name `self_attn`:
a forget-gated Kimi delta attention (`linear_attention`, served as `linear_attn`, and
`self_attn` is then refused on that block) or, on every other block
(`indexed_attention`, which a saved `full_attention` becomes), GLM-5's indexed latent
attention. The delta mixer projects the stream to queries, keys and
values, runs a short causal convolution (SiLU) over them and hands them to the delta
rule with a decay per head and key channel from its forget gate (`forget_gate`:
`linear_lower_bound * sigmoid(exp(A_log) * (f_b_proj(f_a_proj(x)) + dt_bias))`, or
Kimi-Linear's softplus decay without a bound) and a sigmoid write strength per head
(`b_proj`); its head outputs pass a gated RMS norm (the gate `g_b_proj(g_a_proj(x))`)
and `o_proj`. The state per token needs `nnterp.route_kernels(model.family, "torch")`.
The indexed attention is DeepSeek-V3's latent attention with no rotary part; a block
whose `config.indexer_types` entry is `full` runs an indexer that scores pools of
`index_kpool` earlier tokens and keeps the best `index_topk` tokens' worth plus the
unfinished tail, a `shared` block reuses the previous block's choice, which the
blocks pass on beside the streams, so a block returns `(streams, topk_indices)`. On
the eager and sdpa paths the choice is the attention mask, so `attention_scores`
carry its minimum at the keys it drops and `attention_probabilities` are zero there.
A block is dense or a mixture by its `mlp_layer_types` entry; the mixture is
DeepSeek-V3's (a grouped sigmoid router with a correction bias, `gate`, grouped
experts clamped at `swiglu_limit`, shared experts added after the routed ones).

The GLM-5.3-Flash wrapper (`glm5_next`) is served by `nnterp.families.glm5_next`.
"""

import torch
from transformers.models.glm5_next.modeling_glm5_next import (
    Glm5NextTextAttention,
    Glm5NextTextDecoderLayer,
    Glm5NextTextLinearAttention,
    Glm5NextTextMLP,
    Glm5NextTextMoE,
)

from nnterp.components import HybridLayer, HyperConnectionLayer, LatentAttention, LogitLens, collapse_through
from nnterp.components.kimi_delta import KimiDeltaAttention
from nnterp.families import deepseek_v3

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}

#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = deepseek_v3.head_dim
qk_head_dim = deepseek_v3.qk_head_dim


def _stream_count(envoy) -> int:
    return envoy._module.attn_hc.hc_mult


class Layer(HyperConnectionLayer, HybridLayer):
    """The block: hyper-connections with a mixing matrix around one mixer and the MLP, returning the streams with
    the indexer's choice for the next block."""

    returns_tuple = True

    def block_aliases(self) -> dict[str, str]:
        if self._module.block_type == "linear_attention":
            return {"linear_attn": "self_attn"}
        return {}

    def skip_with(self, stream):
        """`stream` (every stream, or one copied into every stream) with the choice the next block would receive.

        A block whose next block reuses its choice hands on the choice it received, or,
        where it received none, every earlier key of each query; any other block hands
        on none, as its forward does.
        """
        if stream.dim() == 3:
            stream = stream.unsqueeze(2).expand(-1, -1, _stream_count(self), -1).contiguous()
        if not getattr(self._module.self_attn, "next_skip_topk", False):
            return stream, None
        _, kwargs = self.inputs
        chosen = kwargs.get("prev_topk_indices")
        if chosen is None:
            # The indexer's choice holds causality, so "every key" is every key up to the query's own.
            batch, seq = stream.shape[:2]
            keys = torch.arange(seq, device=stream.device)
            chosen = torch.where(keys[None, :] <= keys[:, None], keys, -1).to(torch.int32).expand(batch, seq, seq)
        return stream, chosen


#: One stream from a `Streams` value through the text model's `hc_head`; a `Residual` as is.
collapse_streams = collapse_through("model.language_model.hc_head")


project_on_vocab = LogitLens(streams=collapse_streams)


ENVOYS = {
    Glm5NextTextDecoderLayer: Layer,
    Glm5NextTextAttention: LatentAttention,
    Glm5NextTextLinearAttention: KimiDeltaAttention,
    Glm5NextTextMLP: deepseek_v3.Mlp,
    Glm5NextTextMoE: deepseek_v3.Moe,
}
