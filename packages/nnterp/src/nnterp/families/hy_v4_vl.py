"""HY-V4-VL (`HYV4VLForConditionalGeneration`): HY-V4's hyper-connection text model behind HunYuanVL's ViT.

The text model sits under `model.language_model`, with `hc_head` there, and is served
with `nnterp.families.hy_v4_vl_text`'s classes (HY-V4's); transformers has no causal-LM
class for it. The ViT (`vision`, at `model.vision_tower`, `HunyuanVision`) is
HunYuanVL's (see `nnterp.families.hunyuan_vl`): every image's patches in one row
`[1, patches, width]`, a convolution per patch, the attention called once per image
(`PER_IMAGE`), and no final norm, so `tower_output` is its last block's stream. The
patch merger (`projector`, at `model.vision_tower.patch_merger`) runs inside the tower
once per image: it norms, merges each 2x2 group with convolutions, projects to the text
width and adds a learned newline after each row, all of which the wrapper scatters in
`HYV4VLModel` (`image_features`). Every stream of block 0 receives the image.
"""

from transformers.models.hy_v4_vl.modeling_hy_v4_vl import (
    HYV4VLModel,
    HYV4VLVisionAttention,
    HYV4VLVisionBlock,
    HYV4VLVisionMLP,
    HYV4VLVisionModel,
)

from nnterp.components import ImageScatter, VisionLayer, VisionMlp
from nnterp.components.hunyuan_vision import HUNYUAN_VL_WRAPPER_RENAME, HunyuanVision
from nnterp.components.vision import MiniCPMVisionAttention
from nnterp.families import hy_v4_vl_text

RENAME = {**hy_v4_vl_text.RENAME, **HUNYUAN_VL_WRAPPER_RENAME}

#: HY-V4's head and query-key widths, read as the text family reads them.
head_dim = hy_v4_vl_text.head_dim
qk_head_dim = hy_v4_vl_text.qk_head_dim

#: One stream from a `Streams` value through the text model's `hc_head`; a `Residual` as is.
collapse_streams = hy_v4_vl_text.collapse_streams

#: The logit lens through `hc_head`, as the text family reads it.
project_on_vocab = hy_v4_vl_text.project_on_vocab

ENVOYS = {
    **hy_v4_vl_text.ENVOYS,
    HYV4VLVisionModel: HunyuanVision,
    HYV4VLVisionBlock: VisionLayer,
    HYV4VLVisionAttention: MiniCPMVisionAttention,
    HYV4VLVisionMLP: VisionMlp,
    HYV4VLModel: ImageScatter,
}
