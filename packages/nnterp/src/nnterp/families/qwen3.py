"""Qwen3 (`Qwen3ForCausalLM`): Llama's block with a per-head RMS norm on the queries and keys.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`q_norm` and `k_norm` norm each head's query and key before the rotary embedding, so
`attention_queries` and `attention_keys` are normed and rotated, as the interface receives them.
Blocks whose `layer_types` entry is `sliding_attention` pass a sliding window to the interface.

Qwen3 is also the text model of LightOnOCR (`LightOnOcrForConditionalGeneration`): the
text stack under `model.language_model`, a Pixtral tower (`vision`, at
`model.vision_encoder`) that crops each image's patch grid and packs every image's
patches into one row, `[1, patches, vision_hidden_size]`, with no final norm, and a
projector (`projector`, at `model.vision_projection`) that norms the last block's
stream, merges each 2x2 group of patches, and projects it; the wrapper scatters in
`LightOnOcrModel`.

And of Qianfan-OCR (`QianfanOCRForConditionalGeneration`), InternVL's line: an InternViT
tower (`vision`, at `model.vision_tower`) with a CLS token first on the patch axis and
each sublayer's output scaled per channel before the add (`lambda_1`, `lambda_2`, as
InternVL's on Qwen2), its final `layernorm` the tower's `norm`; the wrapper drops the
CLS row, pixel-shuffles the patch grid (`downsample_ratio` by side) before the
projector (`projector`, at `model.multi_modal_projector`), and scatters in
`QianfanOCRModel`.
"""

from transformers.models.lighton_ocr.modeling_lighton_ocr import LightOnOcrModel
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
)
from transformers.models.qianfan_ocr.modeling_qianfan_ocr import (
    QianfanOCRModel,
    QianfanOCRVisionAttention,
    QianfanOCRVisionLayer,
    QianfanOCRVisionMLP,
    QianfanOCRVisionModel,
)
from transformers.models.qwen3.modeling_qwen3 import Qwen3Attention, Qwen3DecoderLayer, Qwen3MLP

from nnterp.components import (
    Attention,
    ImageScatter,
    Layer,
    Mlp,
    PixtralVision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import PIXTRAL_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families.qwen2 import InternVision, InternVisionAttention, InternVisionMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **WRAPPED_TEXT_RENAME,
    "model.vision_encoder": "vision",
    "model.vision_projection": "projector",
    **PIXTRAL_TOWER_RENAME,
    # Qianfan-OCR's InternViT and projector, its inner names keyed relative to the tower.
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    "embeddings.patch_embeddings": "patch_embed",
    "layernorm_before": "input_layernorm",
    "layernorm_after": "post_attention_layernorm",
    "projection_layer": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
    "layernorm": "norm",
}


class Layer(Layer):
    """Qwen3's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Qwen3's attention; the shared eager interface after the per-head query/key norms, so the base holds."""


class Mlp(Mlp):
    """Qwen3's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {
    Qwen3DecoderLayer: Layer,
    Qwen3Attention: Attention,
    Qwen3MLP: Mlp,
    PixtralVisionModel: PixtralVision,
    PixtralAttentionLayer: VisionLayer,
    PixtralAttention: VisionAttention,
    PixtralMLP: VisionMlp,
    LightOnOcrModel: ImageScatter,
    QianfanOCRVisionModel: InternVision,
    QianfanOCRVisionLayer: VisionLayer,
    QianfanOCRVisionAttention: InternVisionAttention,
    QianfanOCRVisionMLP: InternVisionMlp,
    QianfanOCRModel: ImageScatter,
}
