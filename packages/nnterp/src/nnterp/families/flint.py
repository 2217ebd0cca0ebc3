"""Flint (`FlintForCausalLM`): attention sinks and query/key norms, with a sigmoid mixture and an ungated shared expert.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention norms each head's queries and keys (`q_norm`, `k_norm`) and applies the
rotary embedding on the blocks `config.layer_types` marks `sliding_attention` only,
which attend within `sliding_window`; the full-attention blocks use no position
encoding. Each head has a learned sink logit, joined to the masked scores as one
more column before the softmax and dropped after it, as on GPT-OSS, so the rows of
`attention_probabilities` sum to less than one and `attention_scores` are the masked
scores bound before the column joins. Blocks listed in `mlp_only_layers`, or off the
`decoder_sparse_step` schedule, carry a dense MLP. The router (`gate`) scores its
float32 logits with a sigmoid, keeps the top `top_k` and renormalizes them when
`norm_topk_prob` is set; the shared expert runs after the routed experts and is
added in full, with no gate.
"""

from transformers.models.flint.modeling_flint import (
    FlintAttention,
    FlintDecoderLayer,
    FlintMLP,
    FlintSparseMoeBlock,
)

from nnterp.components import Layer, Mlp, Moe, SinkAttention
from nnterp.families import gpt_oss

RENAME = gpt_oss.RENAME


class Moe(Moe):
    """Flint's mixture: a sigmoid router without a bias (`gate`), grouped experts, an ungated shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_expert.output"


ENVOYS = {
    FlintDecoderLayer: Layer,
    FlintAttention: SinkAttention,
    FlintMLP: Mlp,
    FlintSparseMoeBlock: Moe,
}
