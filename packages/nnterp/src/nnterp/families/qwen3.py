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
"""

from transformers.models.lighton_ocr.modeling_lighton_ocr import LightOnOcrModel
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
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

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **WRAPPED_TEXT_RENAME,
    "model.vision_encoder": "vision",
    "model.vision_projection": "projector",
    **PIXTRAL_TOWER_RENAME,
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
}
