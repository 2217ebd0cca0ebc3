"""PaddleOCR-VL's text model (`PaddleOCRTextModel`), served on the `PaddleOCRVLForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

An Ernie 4.5 block (Llama's order, grouped-query attention) under a multimodal rotary
embedding: the position ids carry a temporal, a height and a width row, and
`mrope_section` splits each head's rotary channels among them. The wrapper holds the
text model under `model.language_model` and a SigLIP-named NaViT under
`model.visual.vision_model` (`vision`), whose final norm is `post_layernorm`. The tower
packs every image's patches into one row and calls the attention once per image, so its
pattern and scores are unavailable (`PER_IMAGE`); its patch embedding is a convolution
over each patch alone, `[patches, width, 1, 1]`, served as that one row, and its
queries and keys turn by a 2-D rotary embedding. The projector (`model.projector`)
takes the tower's normed output, norms it again, merges each 2x2 group of patches and
projects it to the text width with a two-layer MLP; the wrapper scatters the result in
`PaddleOCRVLModel` (`image_features`).
"""

from transformers.models.paddleocr_vl.modeling_paddleocr_vl import (
    PaddleOCRAttention,
    PaddleOCRDecoderLayer,
    PaddleOCRMLP,
    PaddleOCRVisionAttention,
    PaddleOCRVisionEncoderLayer,
    PaddleOCRVisionMLP,
    PaddleOCRVisionTransformer,
    PaddleOCRVLModel,
)

from nnterp.components import (
    Attention,
    ImageScatter,
    Layer,
    Mlp,
    QwenVisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME, PatchwiseVision

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.visual.vision_model": "vision",
    "model.projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}


ENVOYS = {
    PaddleOCRDecoderLayer: Layer,
    PaddleOCRAttention: Attention,
    PaddleOCRMLP: Mlp,
    PaddleOCRVisionTransformer: PatchwiseVision,
    PaddleOCRVisionEncoderLayer: VisionLayer,
    PaddleOCRVisionAttention: QwenVisionAttention,
    PaddleOCRVisionMLP: VisionMlp,
    PaddleOCRVLModel: ImageScatter,
}
