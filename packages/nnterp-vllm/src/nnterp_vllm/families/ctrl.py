"""CTRL on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), every name CTRL's own and
renamed (the backend holds the base model as ``model``): the embedding ``w``, the blocks ``h``, the norms ``layernorm1``/``layernorm2`` and the final ``layernorm``,
the attention ``multi_head_attention`` (output projection ``dense``) and the MLP ``ffn``, an ``nn.Sequential`` whose
children ``1`` (a ReLU) and ``2`` are the activation and the down projection. The model scales the embedding by
``sqrt(n_embd)`` in place and adds a sinusoidal position table; ``token_embeddings`` is a copy taken at the
embedding's output, before that. vLLM has no CTRL of its own, so the modules are transformers' classes with vLLM's
linear layers and attention layer (``self_attn.attn``) inside, and the values carry the batch axis.
"""

from transformers.models.ctrl.modeling_ctrl import EncoderLayer, MultiHeadAttention

from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.w": "embed_tokens",
    "model.h": "layers",
    "model.layernorm": "norm",
    "layernorm1": "input_layernorm",
    "layernorm2": "post_attention_layernorm",
    "multi_head_attention": "self_attn",
    "multi_head_attention.dense": "multi_head_attention.o_proj",
    "ffn": "mlp",
    "ffn.1": "ffn.act_fn",
    "ffn.2": "ffn.down_proj",
}


class Layer(base.Layer):
    """CTRL's block; it returns the stream itself, so the base holds."""


class Attention(base.Attention):
    """CTRL's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """CTRL's plain MLP, a linear layer, a ReLU and a linear layer in an ``nn.Sequential``."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``; the MLP is a bare ``nn.Sequential``, keyed on its name.
ENVOYS = {EncoderLayer: Layer, MultiHeadAttention: Attention, "mlp": Mlp}
