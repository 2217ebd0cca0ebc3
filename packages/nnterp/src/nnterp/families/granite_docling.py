"""GraniteDocling (`GraniteDoclingForConditionalGeneration`): Granite's text model behind a SigLIP-built tower with its connector inside.

The text stack sits under `model.text_model` and is served with GraniteDocling's text
classes (`nnterp.families.granite_docling_text`). The tower (`vision`, at
`model.vision_model`) is a SigLIP-built encoder over fixed-size tiles, one row of the
tower's values per tile, whose `post_layernorm` norms every patch (`norm`,
`SiglipVision`). Its connector (`projector`, at `model.vision_model.connector`) runs
inside the tower: it pixel-shuffles the normed patches, projects them and adds a fixed
2-D position embedding, so `projector.output` is a pair, the image tokens and the
deepstack features. The wrapper scatters the image tokens into the token embeddings in
`GraniteDoclingModel`, where `image_features` is read: the tensor written, which the
text model then multiplies by `embedding_multiplier` with the text rows, so block 0
receives `embedding_multiplier * image_features` at the image tokens. DeepStack: the
tower blocks in `vision_config.deepstack_visual_indexes` each feed a merger of their
own, whose output the text model adds to the image rows after an early text block, so
`image_features` is not the whole image. The density router, where a checkpoint has
one, only picks the connector's path and feeds no value.
"""

from transformers.models.granite_docling.modeling_granite_docling import (
    GraniteDoclingEncoderLayer,
    GraniteDoclingModel,
    GraniteDoclingVisionAttention,
    GraniteDoclingVisionMLP,
    GraniteDoclingVisionModel,
)

from nnterp.components import ImageScatter, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, SiglipVision
from nnterp.families import granite_docling_text

RENAME = {
    **granite_docling_text.RENAME,
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
    "model.vision_model": "vision",
    "model.vision_model.connector": "projector",
    **SIGLIP_TOWER_RENAME,
}

#: Granite's logit lens, which divides by `logits_scaling`.
project_on_vocab = granite_docling_text.project_on_vocab

ENVOYS = {
    **granite_docling_text.ENVOYS,
    GraniteDoclingVisionModel: SiglipVision,
    GraniteDoclingEncoderLayer: VisionLayer,
    GraniteDoclingVisionAttention: VisionAttention,
    GraniteDoclingVisionMLP: VisionMlp,
    GraniteDoclingModel: ImageScatter,
}
