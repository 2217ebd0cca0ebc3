"""Gemma 4 unified, text only (`Gemma4UnifiedForCausalLM`): Gemma 4's sandwich block and scaled sum, no per-layer input.

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = layer_scalar * (h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h))))`.

Each sublayer adds its post-norm's output, so the contributions are read on the
sibling norms, and the stream between the sublayers enters `pre_feedforward_layernorm`.
The block multiplies its sum by its `layer_scalar` buffer, so the identity reads
`layer_output == layer_scalar * (layer_input + attention_output + mlp_output)`. The head
width differs per block as on Gemma 4 (`global_head_dim` on full-attention blocks), so
the attention sizes are its own module's and the root's `head_dim` is the sliding
blocks'. The embedding module scales by `sqrt(hidden_size)`, and the head's output is
softcapped where the config sets `final_logit_softcapping`, which `project_on_vocab`
applies too.

The Gemma 4 unified wrapper (`gemma4_unified`) is served by `nnterp.families.gemma4_unified`.
"""

from transformers.models.gemma4_unified.modeling_gemma4_unified import (
    Gemma4UnifiedTextAttention,
    Gemma4UnifiedTextDecoderLayer,
    Gemma4UnifiedTextMLP,
)

from nnterp.components import SandwichLayer, SandwichMlp
from nnterp.families import gemma4_text

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}
head_dim = gemma4_text.head_dim


ENVOYS = {
    Gemma4UnifiedTextDecoderLayer: SandwichLayer,
    Gemma4UnifiedTextAttention: gemma4_text.Attention,
    Gemma4UnifiedTextMLP: SandwichMlp,
}
