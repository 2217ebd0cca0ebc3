"""Qwen2 (`Qwen2ForCausalLM`): Llama's block with biased query/key/value projections and grouped-query attention.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The keys and values are read before `repeat_kv`, so their head axis is
`num_kv_heads` wide while the queries, the pattern and the head outputs are
`num_heads` wide; query head `h` reads key/value head `h // (num_heads // num_kv_heads)`.

Qwen2 is also the text model of Llava wrappers (llava-interleave): there the text
model sits under `model.language_model`, the SigLIP tower is `vision`, and the
projector, which reads the last block's stream before the tower's `post_layernorm`,
is `projector`.
"""

from transformers.models.llava.modeling_llava import LlavaModel
from transformers.models.qwen2.modeling_qwen2 import Qwen2Attention, Qwen2DecoderLayer, Qwen2MLP
from transformers.models.siglip.modeling_siglip import (
    SiglipAttention,
    SiglipEncoderLayer,
    SiglipMLP,
    SiglipVisionModel,
)

from nnterp.components import Attention, ImageScatter, Layer, Mlp, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **SIGLIP_WRAPPER_RENAME,
}


class Layer(Layer):
    """Qwen2's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Qwen2's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Qwen2's gated MLP; the base holds."""


ENVOYS = {
    Qwen2DecoderLayer: Layer,
    Qwen2Attention: Attention,
    Qwen2MLP: Mlp,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    LlavaModel: ImageScatter,
}
