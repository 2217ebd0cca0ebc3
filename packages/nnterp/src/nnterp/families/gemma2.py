"""Gemma 2 (`Gemma2ForCausalLM`): Llama's names around a sandwich block.

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))`.

Each sublayer adds its post-norm's output, so the contributions are read on the
sibling norms, and the stream between the sublayers enters the MLP's pre-norm,
`pre_feedforward_layernorm`. The MLP is gated. The embedding module scales its
output by `sqrt(hidden_size)`. The attention softcaps its scores
(`attn_logit_softcapping`) inside the shared eager interface, and the model softcaps
the head's output (`final_logit_softcapping`), which `project_on_vocab` applies too. Blocks alternate
sliding-window and global attention.
"""

from transformers.models.gemma2.modeling_gemma2 import Gemma2Attention, Gemma2DecoderLayer, Gemma2MLP

from nnterp.components import SandwichAttention, SandwichLayer, SandwichMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {Gemma2DecoderLayer: SandwichLayer, Gemma2Attention: SandwichAttention, Gemma2MLP: SandwichMlp}
