"""Qwen2.5-Omni's thinker text model (`Qwen2_5OmniThinkerTextModel`): Qwen2's block under multimodal rotary.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen2.5-VL's text block (`qwen2_5_vl_text`): Qwen2's block under the multimodal
rotary embedding. The text model's own names (`embed_tokens`, `layers`, `norm`) are
the standard ones.

The Qwen2.5-Omni thinker wrapper (`qwen2_5_omni_thinker`) is served by `nnterp.families.qwen2_5_omni_thinker`.
"""

from transformers.models.qwen2_5_omni.modeling_qwen2_5_omni import Qwen2_5OmniAttention, Qwen2_5OmniDecoderLayer
from transformers.models.qwen2_5_omni.modeling_qwen2_5_omni import Qwen2MLP as Qwen2_5OmniTextMLP

from nnterp.components import Attention, Layer, Mlp

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}

ENVOYS = {
    Qwen2_5OmniDecoderLayer: Layer,
    Qwen2_5OmniAttention: Attention,
    Qwen2_5OmniTextMLP: Mlp,
}
