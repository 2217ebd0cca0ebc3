"""Cosmos3 Edge's text model (`Cosmos3EdgeTextModel`), served on the `Cosmos3EdgeForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Llama's order with grouped-query attention under a multimodal rotary embedding (the
position ids carry a temporal, a height and a width row, and `mrope_section` splits each
head's rotary channels among them) and a plain MLP without a gate,
`down_proj(act_fn(up_proj(x)))` with a squared ReLU (the model's `fc1`, `fc2` and
`activation_fn`). The wrapper holds the text model under `model.language_model` and a
SigLIP2 NaViT under `model.visual` (`vision`): it embeds the flattened patches with a
linear layer, adds learned positions resized to each image's grid, packs every image's
patches into one row and calls the attention once per image, so its pattern and scores
are unavailable (`PER_IMAGE`); its final norm is `post_layernorm`. The patch merger
(`projector`, at `model.projector`) norms the tower's output, merges each 2x2 group of
patches and projects it to the text width; the wrapper scatters it in
`Cosmos3EdgeModel`.
"""

from transformers.models.cosmos3_edge.modeling_cosmos3_edge import (
    Cosmos3EdgeMLP,
    Cosmos3EdgeModel,
    Cosmos3EdgeTextAttention,
    Cosmos3EdgeTextDecoderLayer,
    Cosmos3EdgeTextMLP,
    Cosmos3EdgeVisionAttention,
    Cosmos3EdgeVisionEncoderLayer,
    Cosmos3EdgeVisionModel,
)

from nnterp.components import (
    Attention,
    ImageScatter,
    Layer,
    Mlp,
    QwenVision,
    QwenVisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "fc1": "up_proj",
    "post_layernorm": "norm",
}


ENVOYS = {
    Cosmos3EdgeTextDecoderLayer: Layer,
    Cosmos3EdgeTextAttention: Attention,
    Cosmos3EdgeTextMLP: Mlp,
    Cosmos3EdgeVisionModel: QwenVision,
    Cosmos3EdgeVisionEncoderLayer: VisionLayer,
    Cosmos3EdgeVisionAttention: QwenVisionAttention,
    Cosmos3EdgeMLP: VisionMlp,
    Cosmos3EdgeModel: ImageScatter,
}
