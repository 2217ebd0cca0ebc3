"""Cohere 2 (`Cohere2ForCausalLM`, Command R7B): Cohere's parallel block over sliding and global attention.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

As Cohere: one bias-free LayerNorm feeds both sublayers, `layer_mid` is unavailable,
the block adds `(x + attn) + mlp` so the contribution identity holds bit for bit,
and the model multiplies the head's output by `logit_scale` (Cohere's
`project_on_vocab`). `config.layer_types` gives each block a sliding-window or a
global attention; only the sliding blocks rotate their queries and keys, and both
kinds call the shared eager interface. There is no query/key norm.
"""

from transformers.models.cohere2.modeling_cohere2 import Cohere2Attention, Cohere2DecoderLayer, Cohere2MLP

from nnterp.components import Attention, Mlp, ParallelLayer
from nnterp.families.cohere import RENAME, project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "project_on_vocab"]


class Layer(ParallelLayer):
    """Cohere 2's parallel block, Cohere's; the parallel base holds."""


class Attention(Attention):
    """Cohere 2's attention, sliding or global per block; the shared eager interface, so the base holds."""


class Mlp(Mlp):
    """Cohere 2's gated MLP, Llama's; the base holds."""


ENVOYS = {Cohere2DecoderLayer: Layer, Cohere2Attention: Attention, Cohere2MLP: Mlp}
