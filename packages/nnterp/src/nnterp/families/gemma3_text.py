"""Gemma 3, text only (`Gemma3ForCausalLM`): Gemma 2's sandwich block with query/key norms.

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))`.

Each sublayer adds its post-norm's output, so the contributions are read on the
sibling norms, and the stream between the sublayers enters `pre_feedforward_layernorm`.
The attention norms each head's queries and keys (`q_norm`, `k_norm`) before the
rotary embedding, whose base differs between sliding-window and global blocks
(`layer_types`); the queries and keys it serves are those the shared eager interface
takes, after both. The embedding module scales by `sqrt(hidden_size)`, and the head's
output is softcapped where the config sets `final_logit_softcapping`, which
`project_on_vocab` applies too.

The Gemma 3 wrapper (`gemma3`) is served by `nnterp.families.gemma3`, and ShieldGemma 2
(`shieldgemma2`) by `nnterp.families.shieldgemma2`.
"""

from transformers.models.gemma3.modeling_gemma3 import (
    Gemma3Attention,
    Gemma3DecoderLayer,
    Gemma3ForCausalLM,
    Gemma3MLP,
)

from nnterp.components import SandwichAttention, SandwichLayer, SandwichMlp
from nnterp.components.logit_lens import LogitLens, only_on

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


#: The causal LM softcaps its logits; a wrapper's head does not.
project_on_vocab = LogitLens(softcap=only_on(Gemma3ForCausalLM, "final_logit_softcapping"))


ENVOYS = {
    Gemma3DecoderLayer: SandwichLayer,
    Gemma3Attention: SandwichAttention,
    Gemma3MLP: SandwichMlp,
}
