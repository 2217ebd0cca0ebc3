"""GraniteDocling's text model (`GraniteDoclingTextModel`), served on the `GraniteDoclingForConditionalGeneration` wrapper.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h))`.

Granite's block, attention and MLP (see `nnterp.families.granite`): each contribution
is the scaled product the block adds, the scores are scaled by `attention_multiplier`,
and the head's output is divided by `logits_scaling`, which `project_on_vocab` does too.

The wrapper holds the text model under `model.text_model` and its tower under
`model.vision_model` (`vision`): a SigLIP-built encoder over fixed-size tiles, one
row of the tower's values per tile, whose `post_layernorm` norms every patch (`norm`).
Its connector (`projector`, at `model.vision_model.connector`) runs inside the tower:
it pixel-shuffles the normed patches, projects them and adds a fixed 2-D position
embedding, so `projector.output` is a pair, the image tokens and the deepstack
features. The wrapper scatters the image tokens into the token embeddings in
`GraniteDoclingModel`, where `image_features` is read: the tensor written, which the
text model then multiplies by `embedding_multiplier` with the text rows, so block 0
receives `embedding_multiplier * image_features` at the image tokens. DeepStack, as
Qwen3-VL's: the tower blocks in `vision_config.deepstack_visual_indexes` each feed a
merger of their own, and the text model adds the k-th one's output to the image rows
after text block k (`_deepstack_process`), so block k+1 receives
`layers[k].deepstack_output` and `image_features` is not the whole image (see
`nnterp.components.deepstack`). A text-only load has no tap. The density router,
where a checkpoint has one, only picks the connector's path and feeds no value.
"""

from transformers.models.granite_docling.modeling_granite_docling import (
    GraniteDoclingEncoderLayer,
    GraniteDoclingModel,
    GraniteDoclingTextAttention,
    GraniteDoclingTextDecoderLayer,
    GraniteDoclingTextMLP,
    GraniteDoclingTextModel,
    GraniteDoclingVisionAttention,
    GraniteDoclingVisionMLP,
    GraniteDoclingVisionModel,
)

from nnterp.components import ImageScatter, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.deepstack import DeepstackTap, DeepstackTextModel
from nnterp.components.vision import SIGLIP_TOWER_RENAME, SiglipVision
from nnterp.families import granite
from nnterp.families.granite import project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "project_on_vocab"]

RENAME = {
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
    "model.vision_model": "vision",
    "model.vision_model.connector": "projector",
    **SIGLIP_TOWER_RENAME,
}


class Layer(DeepstackTap, granite.Layer):
    """Granite's block; both contributions scaled by `residual_multiplier`, plus the stream after its deepstack tap."""


class Attention(granite.Attention):
    """Granite's attention; the shared eager interface at `attention_multiplier`, its output scaled by the block."""


class Mlp(granite.Mlp):
    """Granite's gated MLP; its output scaled by the block, its neurons unscaled."""


ENVOYS = {
    GraniteDoclingTextModel: DeepstackTextModel,
    GraniteDoclingTextDecoderLayer: Layer,
    GraniteDoclingTextAttention: Attention,
    GraniteDoclingTextMLP: Mlp,
    GraniteDoclingVisionModel: SiglipVision,
    GraniteDoclingEncoderLayer: VisionLayer,
    GraniteDoclingVisionAttention: VisionAttention,
    GraniteDoclingVisionMLP: VisionMlp,
    GraniteDoclingModel: ImageScatter,
}
