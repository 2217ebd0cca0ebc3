"""GLM-5 (`GlmMoeDsaForCausalLM`): DeepSeek-V3.2's indexed latent attention, with the indexer's choice shared across blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is DeepSeek-V3's multi-head latent attention (see
`nnterp.components.latent`), its rotary embedding on interleaved pairs. A block whose
`config.indexer_types` entry is `full` runs a lightweight indexer (`indexer`) that
scores every earlier token and keeps the best `index_topk` per query; a `shared`
block reuses the choice of the last full block, which the blocks pass on beside the
stream, so a block returns `(hidden_states, topk_indices)`; a skipped block hands on
the choice it received, or, where none came before it, one that keeps every key. On the eager and sdpa
paths the choice is folded into the attention mask, so `attention_scores` carry the
mask's minimum at the keys it drops and `attention_probabilities` are zero there.
The mixture is DeepSeek-V3's: dense blocks first (`mlp_layer_types`), then a grouped
sigmoid router with a correction bias (`gate`), grouped experts, and shared experts
added after the routed ones.
"""

import torch
from transformers.models.glm_moe_dsa.modeling_glm_moe_dsa import (
    GlmMoeDsaAttention,
    GlmMoeDsaDecoderLayer,
    GlmMoeDsaMLP,
    GlmMoeDsaMoE,
)

from nnterp.components import LatentAttention, Layer, Mlp, Moe, latent_head_dim, latent_qk_head_dim

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}
#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim


class Layer(Layer):
    """The block; Llama's order, returning the stream with the indexer's choice for the next block."""

    returns_tuple = True

    def skip_with(self, stream):
        """`stream` with the indexer's choice this block received, or, where it received none, every key."""
        _, kwargs = self.inputs
        chosen = kwargs.get("prev_topk_indices")
        if chosen is None:
            batch, _, queries, keys = kwargs["attention_mask"].shape
            chosen = torch.arange(keys, device=stream.device, dtype=torch.int32).expand(batch, queries, keys)
        return stream, chosen


class Moe(Moe):
    """DeepSeek-V3's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    GlmMoeDsaDecoderLayer: Layer,
    GlmMoeDsaAttention: LatentAttention,
    GlmMoeDsaMLP: Mlp,
    GlmMoeDsaMoE: Moe,
}
