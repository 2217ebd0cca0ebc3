"""CodeGen (`CodeGenForCausalLM`): GPT-J's parallel block with a fused query/key/value projection.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

As GPT-J: `ln_1` feeds both sublayers, `layer_mid` is unavailable, the block sums
`attn + mlp + x` so the contribution identity holds to float32 rounding, each
sublayer ends in its own dropout, the MLP is ungated, and the attention's code comes
in GPT-J's two shapes, whose values follow the module. `qkv_proj` projects the
queries, values and keys in one go, split per model-parallel shard. Inside `_attn` the scores enter a
`nn.Softmax` instance built on the same line, whose call is `call_0`.
"""

from transformers.models.codegen.modeling_codegen import CodeGenAttention, CodeGenBlock, CodeGenMLP

from nnterp.components import Mlp
from nnterp.components.layer import returns_tuple_by_annotation
from nnterp.families import gptj
from nnterp.families.gptj import RENAME, intermediate_size

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "intermediate_size"]


class Layer(gptj.ParallelLayer):
    """CodeGen's parallel block, GPT-J's."""

    returns_tuple = returns_tuple_by_annotation(CodeGenBlock)


class Attention(gptj.Attention):
    """CodeGen's attention, read as GPT-J's; inside `_attn` the softmax is an `nn.Softmax` call."""

    OWN_SCORES = "source.call_0.input"


ENVOYS = {CodeGenBlock: Layer, CodeGenAttention: Attention, CodeGenMLP: Mlp}
