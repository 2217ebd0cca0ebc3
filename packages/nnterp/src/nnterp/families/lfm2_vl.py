"""LFM2-VL (`Lfm2VlForConditionalGeneration`): LFM2's hybrid text model behind a SigLIP2 NaFlex tower and a pixel-unshuffle projector.

The text stack sits under `model.language_model` and is served with LFM2's classes
(`nnterp.families.lfm2`). The SigLIP2 NaFlex tower (`vision`, at `model.vision_tower`)
embeds each image's patches with a linear layer, adds its position table resampled to
the image's own grid, and runs every image as a row of its own padded to the most
patches an image can have, the padding masked out of the attention; its final
`post_layernorm` is the tower's `norm`. The projector (`projector`, at
`model.multi_modal_projector`) pixel-unshuffles each 2x2 group of the tower's patches
into one row, norms it and maps it through a two-layer MLP to the text width;
`Lfm2VlModel`'s forward scatters its rows into the token embeddings. The wrapper calls
the projector once per image on some releases and once on every image's groups laid
side by side on others, so `image_features`, read at the scatter, is the value that
holds every image's rows in order.
"""

from transformers.models.lfm2_vl.modeling_lfm2_vl import Lfm2VlModel
from transformers.models.siglip2.modeling_siglip2 import (
    Siglip2Attention,
    Siglip2EncoderLayer,
    Siglip2MLP,
    Siglip2VisionModel,
)

from nnterp.components import ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, variable_resolution
from nnterp.families import lfm2

RENAME = {
    **lfm2.RENAME,
    "model.language_model.embed_tokens": "embed_tokens",
    "model.language_model.layers": "layers",
    "model.language_model.embedding_norm": "norm",
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    # The short convolution has an `out_proj` too: LFM2's `self_attn.out_proj` key names the tower attention's.
    **{native: alias for native, alias in SIGLIP_TOWER_RENAME.items() if native != "out_proj"},
    "post_layernorm": "norm",
}


class NaFlexVision(Vision):
    """LFM2-VL's SigLIP2 NaFlex tower: each image a row of its own, at the image's own resolution."""

    image_size = property(variable_resolution)


ENVOYS = {
    **lfm2.ENVOYS,
    Siglip2VisionModel: NaFlexVision,
    Siglip2EncoderLayer: VisionLayer,
    Siglip2Attention: VisionAttention,
    Siglip2MLP: VisionMlp,
    Lfm2VlModel: ImageScatter,
}
