"""Mistral Large 4's text model (`MistralLarge4TextModel`): GLM-5's indexed latent attention and Mistral 4's mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

No causal-LM class of the auto mapping names the type: it is served as the text model of
Mistral Large 4 (`MistralLarge4ForConditionalGeneration`), whose keys this family holds.

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
input after the routed experts, and the module returns the sum. The wrapper softcaps the
head's output (`final_logit_softcapping`), which `project_on_vocab` applies too.

The wrapper is Mistral 3's (see `nnterp.families.mistral`): the text stack under
`model.language_model`, a Pixtral tower (`vision`, at `model.vision_tower`) that packs
every image's patches into one row, and a projector (`projector`, at
`model.multi_modal_projector`) that RMS-norms the stream of the block
`vision_feature_layer` names, merges each image's patches in squares of
`spatial_merge_size` by side (`patch_merger`) and projects them through a two-layer MLP.
The wrapper model scatters the features in, one image token per merged square; the
processor's row breaks and image end are text tokens the scatter skips.
"""

from transformers.models.mistral_large4.modeling_mistral_large4 import (
    MistralLarge4Model,
    MistralLarge4TextAttention,
    MistralLarge4TextDecoderLayer,
    MistralLarge4TextMLP,
    MistralLarge4TextMoE,
)
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
)

from nnterp.components import ImageScatter, PixtralVision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PIXTRAL_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import glm_moe_dsa, mistral4

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    **PIXTRAL_TOWER_RENAME,
}
#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = glm_moe_dsa.head_dim
qk_head_dim = glm_moe_dsa.qk_head_dim


ENVOYS = {
    MistralLarge4TextDecoderLayer: glm_moe_dsa.Layer,
    MistralLarge4TextAttention: glm_moe_dsa.Attention,
    MistralLarge4TextMLP: mistral4.Mlp,
    MistralLarge4TextMoE: mistral4.Moe,
    # Mistral 3's tower and scatter (`nnterp.families.mistral`).
    PixtralVisionModel: PixtralVision,
    PixtralAttentionLayer: VisionLayer,
    PixtralAttention: VisionAttention,
    PixtralMLP: VisionMlp,
    MistralLarge4Model: ImageScatter,
}
