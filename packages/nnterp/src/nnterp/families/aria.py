"""Aria (`AriaForConditionalGeneration`): Aria's mixture text model behind Idefics 3's tower and a query projector.

The text stack sits under `model.language_model` and is served with Aria's classes
(`nnterp.families.aria_text`). The tower (`vision`, at `model.vision_tower`) is Idefics
3's SigLIP-built one, whose `post_layernorm` norms every patch (its `norm`), so
`tower_output` is the tower's normed output. In the projector (`projector`, at
`model.multi_modal_projector`) a learned set of queries, as many as
`projector_patch_to_query_dict` gives the image's patch count, cross-attends to the
patches and passes through an MLP to the text width. The projector reads the last
block's stream before `post_layernorm` (`vision_feature_layer` -1), so a write to
`tower_output` never reaches the text. The wrapper scatters in `AriaModel`, so
`image_features` is the projector's output, one image token per query.
"""

from transformers.models.aria.modeling_aria import AriaModel
from transformers.models.idefics3.modeling_idefics3 import (
    Idefics3EncoderLayer,
    Idefics3VisionAttention,
    Idefics3VisionMLP,
    Idefics3VisionTransformer,
)

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import aria_text

RENAME = {**aria_text.RENAME, **SIGLIP_WRAPPER_RENAME}

ENVOYS = {
    **aria_text.ENVOYS,
    Idefics3VisionTransformer: Vision,
    Idefics3EncoderLayer: VisionLayer,
    Idefics3VisionAttention: VisionAttention,
    Idefics3VisionMLP: VisionMlp,
    AriaModel: ImageScatter,
}
