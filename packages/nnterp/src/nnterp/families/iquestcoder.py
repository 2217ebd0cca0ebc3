"""IQuest-Coder (`iquestcoder`, run by `LlamaForCausalLM`): Llama's model under its own config.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

transformers maps the `iquestcoder` model type to Llama's modeling classes, so the module
tree, the envoy classes and the values are Llama's family's own; only the config's
defaults and spellings differ.
"""

from transformers.models.llama import modeling_llama  # noqa: F401  - the classes the envoys key on

from nnterp.families.llama import ENVOYS, RENAME, Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]
