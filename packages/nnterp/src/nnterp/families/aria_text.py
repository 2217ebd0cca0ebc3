"""Aria's language model (`AriaTextForCausalLM`): Llama's block with a mixture of experts beside shared experts.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Every block's MLP is a mixture. Its router (`router`) projects the token onto one
logit per expert, keeps the top `moe_topk` logits and takes a softmax over those
alone; the grouped experts run on the chosen slots, and the shared experts (one
gated MLP `moe_num_shared_experts` times as wide as a routed expert) run on every
token beside them. The module returns the routed sum plus the shared output.
The router and the experts keep their own class names, not the mixture's block:
the envoys bind to the block, the attention and the mixture only.

Aria's language model is also the text model of Aria (`AriaForConditionalGeneration`):
the text stack under `model.language_model`, Idefics 3's SigLIP-built tower (`vision`,
at `model.vision_tower`) whose `post_layernorm` norms every patch (its `norm`), and a
projector (`projector`, at `model.multi_modal_projector`) in which a learned set of
queries, as many as `projector_patch_to_query_dict` gives the image's patch count,
cross-attends to the patches and passes through an MLP to the text width. The projector
reads the last block's stream before `post_layernorm` (`vision_feature_layer` -1), so a
write to `tower_output` never reaches the text. The wrapper scatters in `AriaModel`, so
`image_features` is the projector's output, one image token per query.
"""

from transformers.models.aria.modeling_aria import AriaModel, AriaTextAttention, AriaTextDecoderLayer, AriaTextMoELayer
from transformers.models.idefics3.modeling_idefics3 import (
    Idefics3EncoderLayer,
    Idefics3VisionAttention,
    Idefics3VisionMLP,
    Idefics3VisionTransformer,
)

from nnterp.components import Attention, ImageScatter, Layer, Moe, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}


class Moe(Moe):
    """Aria's mixture: a softmax over the chosen logits (`router`), grouped experts, shared experts beside them."""

    LOGITS = "nn_functional_linear_0"
    SHARED = "shared_experts.output"


ENVOYS = {
    AriaTextDecoderLayer: Layer,
    AriaTextAttention: Attention,
    AriaTextMoELayer: Moe,
    Idefics3VisionTransformer: Vision,
    Idefics3EncoderLayer: VisionLayer,
    Idefics3VisionAttention: VisionAttention,
    Idefics3VisionMLP: VisionMlp,
    AriaModel: ImageScatter,
}
