"""GPT-NeoX (Pythia) on vLLM's transformers backend (``TransformersForCausalLM``, transformers' own modules).

out = x + self_attn(input_layernorm(x)) + mlp(post_attention_layernorm(x)) with ``use_parallel_residual``, else
h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)). vLLM has no GPT-NeoX of its
own, so the block, attention and MLP are transformers' classes with vLLM's linear layers and attention layer
(``attention.attn``) inside, and the values carry the batch axis. The contributions are read after the block's
dropouts, which is what the block adds; on a parallel block there is no stream between the sublayers.
"""

from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXAttention, GPTNeoXLayer, GPTNeoXMLP

from nnterp.components import PARALLEL, Residual
from nnterp_vllm.components import transformers_backend as base

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_in": "embed_tokens",
    "model.layers": "layers",
    "model.final_layer_norm": "norm",
    "attention": "self_attn",
    "attention.dense": "attention.o_proj",
    "dense_4h_to_h": "down_proj",
    "act": "act_fn",
}


def _parallel(layer) -> str | None:
    return PARALLEL if layer._module.use_parallel_residual else None


class Layer(base.Layer):
    """GPT-NeoX's block, parallel where the checkpoint sets ``use_parallel_residual``."""

    @base.Batched(
        "post_attention_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=_parallel,
    )
    def layer_mid(self, rows) -> Residual:
        return rows


class Attention(base.Attention):
    """GPT-NeoX's attention; the contribution is read after the block's dropout."""

    @base.Batched("../post_attention_dropout.output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


class Mlp(base.Mlp):
    """GPT-NeoX's plain MLP; the contribution is read after the block's dropout."""

    @base.Batched("../post_mlp_dropout.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GPTNeoXLayer: Layer, GPTNeoXAttention: Attention, GPTNeoXMLP: Mlp}
