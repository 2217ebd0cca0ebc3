"""Kimi K2.5 (`Kimi_K25ForConditionalGeneration`): DeepSeek-V3's text model behind a packed MoonViT tower.

The wrapper's text config is DeepSeek-V3's (`deepseek_v3`), and this module serves it
with DeepSeek-V3's envoy classes: the text model under `model.language_model`, its
latent attention and grouped sigmoid mixture as in `nnterp.families.deepseek_v3`. The
tower's keys live here rather than in the text family, whose `RENAME` several other
families import. Loaded with `task="image-text-to-text"`.

The MoonViT tower (`vision`, at `model.vision_tower`) embeds each patch alone with a
convolution (`patch_embed`, which also adds a learned position grid resampled to each
image), packs every image's patches into one row, `[1, patches, width]`, rotates its
queries and keys by each patch's 2-D position, and calls the attention once per image, so
its pattern and scores are unavailable (`PER_IMAGE`). Its blocks are pre-norm,
`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`, with
an ungated MLP. The final norm (`vision.norm`, native `final_layernorm`) ends
`tower_output`; the tower then gathers each 2x2 group of patches (its `pooler_output`),
and the projector (`projector`, at `model.mm_projector`) norms each group's patches, joins
them into one row and projects it to the text width with a two-layer MLP.
`Kimi_K25Model`'s forward scatters its output into the token embeddings.
"""

from transformers.models.kimi_k25.modeling_kimi_k25 import (
    Kimi_K25Model,
    Kimi_K25VisionAttention,
    Kimi_K25VisionEncoderLayer,
    Kimi_K25VisionMLP,
    Kimi_K25VisionModel,
)

from nnterp.components import ImageScatter, QwenVision, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME, MoonVisionAttention
from nnterp.families import deepseek_v3
from nnterp.families.deepseek_v3 import Layer, Mlp, Moe

__all__ = [
    "ENVOYS",
    "RENAME",
    "Layer",
    "Mlp",
    "Moe",
    "MoonVisionAttention",
    "head_dim",
    "qk_head_dim",
]

RENAME = {
    **deepseek_v3.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.mm_projector": "projector",
    # The tower's inner names, keyed relative to the tower: its blocks sit at `layers` already.
    **QWEN_TOWER_RENAME,
    "final_layernorm": "norm",
}

#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = deepseek_v3.head_dim
qk_head_dim = deepseek_v3.qk_head_dim


ENVOYS = {
    **deepseek_v3.ENVOYS,
    Kimi_K25VisionModel: QwenVision,
    Kimi_K25VisionEncoderLayer: VisionLayer,
    Kimi_K25VisionAttention: MoonVisionAttention,
    Kimi_K25VisionMLP: VisionMlp,
    Kimi_K25Model: ImageScatter,
}
