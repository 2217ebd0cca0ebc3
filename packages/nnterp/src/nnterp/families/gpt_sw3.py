"""GPT-SW3 (`GPT2LMHeadModel` under model type `gpt-sw3`): GPT-2's block and spellings.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

transformers builds a GPT-SW3 checkpoint with GPT-2's modeling code and its config
class, so everything GPT-2's family says holds here (`c_proj` aliased `o_proj` on the
attention and `down_proj` on the MLP, queries that refuse in-place edits, the
`reorder_and_upcast_attn` path off the interface). Its config class stamps
`model_type` "gpt2", so only a checkpoint whose config names "gpt-sw3" loads this
family; the module's file name writes the type's `-` as `_`.
"""

from transformers.models.gpt2.modeling_gpt2 import GPT2MLP, GPT2Attention, GPT2Block

from nnterp.families import gpt2

RENAME = gpt2.RENAME
intermediate_size = gpt2.intermediate_size


ENVOYS = {GPT2Block: gpt2.Layer, GPT2Attention: gpt2.Attention, GPT2MLP: gpt2.Mlp}
