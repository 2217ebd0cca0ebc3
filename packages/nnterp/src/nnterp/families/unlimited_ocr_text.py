"""Unlimited-OCR's text model (`UnlimitedOcrTextModel`), which transformers builds only inside its wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

DeepSeek-OCR 2's text model (`deepseek_ocr2_text`): plain multi-head attention under
a cos/sin rotary embedding, and `config.mlp_layer_types` saying which blocks carry a
dense gated MLP and which DeepSeek-V2's mixture (a softmax router, `gate`, whose
chosen scores times `routed_scaling_factor` are `expert_weights`, and shared experts
added after the routed ones). Its blocks' `layer_types` are
`"reference_sliding_attention"`: a token attends to every prompt token and to the
last `sliding_window` generated ones, so within one forward pass the mask is causal.

The type has no causal-LM class: the default task builds the wrapper with no
processor. The Unlimited-OCR wrapper (`unlimited_ocr`) is served by
`nnterp.families.unlimited_ocr`.
"""

from transformers.models.unlimited_ocr.modeling_unlimited_ocr import (
    UnlimitedOcrTextAttention,
    UnlimitedOcrTextDecoderLayer,
    UnlimitedOcrTextMLP,
    UnlimitedOcrTextMoe,
)

from nnterp.families import deepseek_ocr2_text

#: The blocks carry the standard names; the wrapper's module names where the text model sits.
RENAME: dict[str | type, str] = {}


ENVOYS = {
    UnlimitedOcrTextDecoderLayer: deepseek_ocr2_text.Layer,
    UnlimitedOcrTextAttention: deepseek_ocr2_text.Attention,
    UnlimitedOcrTextMLP: deepseek_ocr2_text.Mlp,
    UnlimitedOcrTextMoe: deepseek_ocr2_text.Moe,
}
