"""GPTBigCode (SantaCoder, StarCoder) on vLLM's transformers backend (``TransformersForCausalLM``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), GPT-2's block with GPT-2's
spellings (``ln_1``, ``attn``, ``ln_2``, ``c_proj`` on both sublayers) and multi-query attention, where every
query head reads one key and value head. vLLM has no GPTBigCode of its own, so the modules are transformers'
classes with vLLM's linear layers and attention layer (``self_attn.attn``) inside, and the values carry the
batch axis.
"""

from transformers.models.gpt_bigcode.modeling_gpt_bigcode import GPTBigCodeAttention, GPTBigCodeBlock, GPTBigCodeMLP

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.wte": "embed_tokens",
    "model.h": "layers",
    "model.ln_f": "norm",
    "ln_1": "input_layernorm",
    "attn": "self_attn",
    "ln_2": "post_attention_layernorm",
    "attn.c_proj": "attn.o_proj",
    "mlp.c_proj": "mlp.down_proj",
    "act": "act_fn",
}


class Layer(base.Layer):
    """GPTBigCode's block; GPT-2's order, so the base holds."""


class Attention(base.Attention):
    """GPTBigCode's multi-query attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """GPTBigCode's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GPTBigCodeBlock: Layer, GPTBigCodeAttention: Attention, GPTBigCodeMLP: Mlp}
