"""GPT-2 on vLLM (``vllm.model_executor.models.gpt2``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), with GPT-2's names
(``ln_1``, ``attn``, ``ln_2``, ``c_fc``/``c_proj``) renamed to the standard ones. The block is called with the
stream alone and returns it. The MLP is plain: ``mlp_activation`` and ``mlp_neurons`` are both the input of the
down projection (``c_proj``).
"""

from vllm.model_executor.models.gpt2 import GPT2MLP, GPT2Attention, GPT2Block

from nnterp_vllm import components as base

RENAME = {
    "transformer.wte": "embed_tokens",
    "transformer.h": "layers",
    "transformer.ln_f": "norm",
    "ln_1": "input_layernorm",
    "attn": "self_attn",
    "ln_2": "post_attention_layernorm",
    "attn.c_proj": "attn.o_proj",
    "mlp.c_proj": "mlp.down_proj",
    "act": "act_fn",
}


class Layer(base.Layer):
    """GPT-2's block: ``forward(hidden_states) -> hidden_states``."""


class Attention(base.Attention):
    """GPT-2's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """GPT-2's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GPT2Block: Layer, GPT2Attention: Attention, GPT2MLP: Mlp}
