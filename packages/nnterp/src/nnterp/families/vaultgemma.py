"""VaultGemma (`VaultGemmaForCausalLM`): Gemma 2's block without the post-norms.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(pre_feedforward_layernorm(h))`.

The MLP's pre-norm keeps Gemma 2's name, `pre_feedforward_layernorm`, and there is
no `post_attention_layernorm`: the stream between the sublayers is read on the
pre-feedforward norm, and each sublayer adds its module output. The embedding
module scales by `sqrt(hidden_size)`, the attention softcaps its scores inside the
shared eager interface, and the model softcaps the head's output
(`final_logit_softcapping`), which `project_on_vocab` applies too. Blocks alternate
sliding-window and global attention.
"""

from transformers.models.vaultgemma.modeling_vaultgemma import (
    VaultGemmaAttention,
    VaultGemmaDecoderLayer,
    VaultGemmaMLP,
)

from nnterp.components import Attention, Mlp, SandwichLayer

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {VaultGemmaDecoderLayer: SandwichLayer, VaultGemmaAttention: Attention, VaultGemmaMLP: Mlp}
