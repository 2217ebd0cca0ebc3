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
interface; there is no query/key norm. DeepStack, as Qwen3-VL's: inside the wrapper
the text model adds the k-th tower tap to the image rows after text block k, so block
k+1 receives `layers[k].deepstack_output` (see `nnterp.components.deepstack`). A
text-only load has no tap.

The Cohere Compass wrapper (`cohere_compass`) is served by `nnterp.families.cohere_compass`.
"""

from transformers.models.cohere_compass.modeling_cohere_compass import (
    CohereCompassAttention,
    CohereCompassDecoderLayer,
    CohereCompassMLP,
    CohereCompassTextModel,
)

from nnterp.components import Attention, Mlp, ParallelLayer
from nnterp.components.deepstack import DeepstackTap, DeepstackTextModel
from nnterp.families import cohere
from nnterp.families.cohere import project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "project_on_vocab"]


RENAME = dict(cohere.RENAME)


class Layer(DeepstackTap, ParallelLayer):
    """The parallel block, Cohere's; the parallel base holds, plus the stream after its deepstack tap."""


ENVOYS = {
    CohereCompassTextModel: DeepstackTextModel,
    CohereCompassDecoderLayer: Layer,
    CohereCompassAttention: Attention,
    CohereCompassMLP: Mlp,
}
