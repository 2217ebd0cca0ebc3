"""Cohere Compass text (`CohereCompassForCausalLM`): Cohere 2's parallel block with a rotary embedding per layer type.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

The language model of Cohere Compass (North) on its own. As Cohere: one bias-free
LayerNorm feeds both sublayers, `layer_mid` is unavailable, the block adds
`(x + attn) + mlp` so the contribution identity holds bit for bit, and the model
multiplies the head's output by `logit_scale` (1.0 when the config leaves it
unset), which Cohere's `project_on_vocab` reads off the model. `config.layer_types`
gives each block a sliding-window or a global attention, and
`config.rope_parameters` holds one rotary setting per layer type: a type set to
`None` runs without a position embedding. Every block calls the shared eager
interface; there is no query/key norm.
"""

from transformers.models.cohere_compass.modeling_cohere_compass import (
    CohereCompassAttention,
    CohereCompassDecoderLayer,
    CohereCompassMLP,
)

from nnterp.components import Attention, Mlp, ParallelLayer
from nnterp.families.cohere import RENAME, project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "project_on_vocab"]


class Layer(ParallelLayer):
    """The parallel block, Cohere's; the parallel base holds."""


class Attention(Attention):
    """The attention, sliding or global per block, rotary or not per layer type; the shared eager interface, so the base holds."""


class Mlp(Mlp):
    """The gated MLP, Llama's; the base holds."""


ENVOYS = {CohereCompassDecoderLayer: Layer, CohereCompassAttention: Attention, CohereCompassMLP: Mlp}
