"""Mistral Large 4's text model (`MistralLarge4TextModel`): GLM-5's indexed latent attention and Mistral 4's mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

No causal-LM class of the auto mapping names the type: it runs as the text model of
Mistral Large 4, whose wrapper (`mistral_large4`) is served by `nnterp.families.mistral_large4`.

The attention is multi-head latent attention (see `nnterp.components.latent`) with no
query compression: one `q_proj` gives each head's no-rope and rotary query. The rotary
embedding is on interleaved pairs, its frequencies scaled by a learned `alpha`; a block
whose `config.no_rope_layers` entry is 0 rotates nothing, its whole query and key width
then being the no-rope part. A block whose `config.kv_source_layers` entry names an
earlier block has no `kv_a_proj_with_mqa` and decompresses that block's latent with its
own `kv_b_proj`; skipping that earlier block (`skip_layers`) leaves its latent uncomputed,
and transformers' forward raises a `KeyError` at the block that reuses it. Before the shared interface the queries are multiplied per head by
`scale * log(position + 1) + bias` (`softmax_scaling`), so `attention_queries` are the
scaled queries. As in GLM-5, a block whose `config.indexer_types` entry is `full` runs an
indexer (`indexer`, its queries from the normed stream) that keeps the best
`index_topk` earlier tokens per query; a `shared` block reuses the last full block's
choice, which the blocks pass on beside the stream, so a block returns
`(hidden_states, topk_indices)`. On the eager and sdpa paths the choice is folded into
the attention mask, so `attention_scores` carry the mask's minimum at the keys it drops
and `attention_probabilities` are zero there.

The first blocks (`mlp_layer_types`) carry a dense MLP, the others Mistral 4's mixture:
the router (`gate`) computes its logits in float32, scores them with a softmax over every
expert, keeps the best `topk_group` of `n_group` groups (a group scored by its two best
experts), then the top `top_k` experts; `expert_weights` are their softmax scores, always
renormalized, times `routed_scaling_factor`. The shared experts run on the mixture's
input after the routed experts, and the module returns the sum.
"""

from transformers.models.mistral_large4.modeling_mistral_large4 import (
    MistralLarge4TextAttention,
    MistralLarge4TextDecoderLayer,
    MistralLarge4TextMLP,
    MistralLarge4TextMoE,
)

from nnterp.components import LatentAttention
from nnterp.families import glm_moe_dsa, mistral4

#: The blocks carry the standard names; the wrapper's module names where the text model sits.
RENAME = {}
#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = glm_moe_dsa.head_dim
qk_head_dim = glm_moe_dsa.qk_head_dim


ENVOYS = {
    MistralLarge4TextDecoderLayer: glm_moe_dsa.Layer,
    MistralLarge4TextAttention: LatentAttention,
    MistralLarge4TextMLP: mistral4.Mlp,
    MistralLarge4TextMoE: mistral4.Moe,
}
