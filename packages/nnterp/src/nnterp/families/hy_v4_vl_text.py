"""HY-V4-VL's text model (`HYV4VLTextModel`), served on the `HYV4VLForConditionalGeneration` wrapper.

`h = post_a * self_attn(input_layernorm(collapse_a)) + x;
out = post_m * mlp(post_attention_layernorm(collapse_m)) + h`, over every stream.

HY-V4's block (see `nnterp.families.hy_v4`): unmixed hyper-connection streams around
a gated latent attention with a sink per head and an indexer's top-k mask, and a
dense MLP or a mixture per block, under a multimodal rotary embedding. Its values are
HY-V4's, keyed on the wrapper's own copies of the classes. The wrapper holds the text
model under `model.language_model`, with `hc_head` there, and the ViT under
`model.vision_tower`, HunYuanVL's (see `nnterp.families.hunyuan_vl_text`): every
image's patches in one row `[1, patches, width]`, a convolution per patch, the
attention called once per image (`PER_IMAGE`), no final norm. The patch merger
(`projector`) runs inside the tower once per image: it norms, merges each 2x2 group
with convolutions, projects to the text width and adds a learned newline after each
row, all of which the wrapper scatters in `HYV4VLModel` (`image_features`). Every
stream of block 0 receives the image.
"""

from transformers.models.hy_v4_vl.modeling_hy_v4_vl import (
    HYV4VLMLP,
    HYV4VLAttention,
    HYV4VLDecoderLayer,
    HYV4VLModel,
    HYV4VLMoE,
    HYV4VLVisionAttention,
    HYV4VLVisionBlock,
    HYV4VLVisionMLP,
    HYV4VLVisionModel,
)

from nnterp.components import ImageScatter, LogitLens, VisionLayer, VisionMlp, collapse_through
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families.hunyuan_vl_text import HunyuanVision, HunyuanVisionAttention
from nnterp.families.hy_v4 import Attention, Layer, Mlp, Moe, head_dim, qk_head_dim

__all__ = [
    "ENVOYS",
    "RENAME",
    "Attention",
    "Layer",
    "Mlp",
    "Moe",
    "collapse_streams",
    "head_dim",
    "project_on_vocab",
    "qk_head_dim",
]

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_tower.patch_merger": "projector",
    **SIGLIP_TOWER_RENAME,
}


#: One stream from a `Streams` value through the text model's `hc_head`; a `Residual` as is.
collapse_streams = collapse_through("model.language_model.hc_head")


project_on_vocab = LogitLens(streams=collapse_streams)


ENVOYS = {
    HYV4VLDecoderLayer: Layer,
    HYV4VLAttention: Attention,
    HYV4VLMLP: Mlp,
    HYV4VLMoE: Moe,
    HYV4VLVisionModel: HunyuanVision,
    HYV4VLVisionBlock: VisionLayer,
    HYV4VLVisionAttention: HunyuanVisionAttention,
    HYV4VLVisionMLP: VisionMlp,
    HYV4VLModel: ImageScatter,
}
