"""GraniteDocling's text model (`GraniteDoclingTextModel`): Granite's block, with deepstack taps after early blocks.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h))`.

Granite's block, attention and MLP (see `nnterp.families.granite`): each contribution
is the scaled product the block adds, the scores are scaled by `attention_multiplier`,
and the head's output is divided by `logits_scaling`, which `project_on_vocab` does too.
DeepStack, as Qwen3-VL's: the text model adds the k-th tower tap to the image rows after
text block k (`_deepstack_process`), so block k+1 receives `layers[k].deepstack_output`
(see `nnterp.components.deepstack`). A text-only load has no tap.

The GraniteDocling wrapper (`granite_docling`) is served by `nnterp.families.granite_docling`.
"""

from transformers.models.granite_docling.modeling_granite_docling import (
    GraniteDoclingTextAttention,
    GraniteDoclingTextDecoderLayer,
    GraniteDoclingTextMLP,
    GraniteDoclingTextModel,
)

from nnterp.components import ScaledAttention, ScaledMlp
from nnterp.components.deepstack import DeepstackTap, DeepstackTextModel
from nnterp.families import granite
from nnterp.families.granite import project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Layer", "project_on_vocab"]

#: The blocks carry the standard names; the wrapper's module names where the text model sits.
RENAME = {}


class Layer(DeepstackTap, granite.Layer):
    """Granite's block; both contributions scaled by `residual_multiplier`, plus the stream after its deepstack tap."""


ENVOYS = {
    GraniteDoclingTextModel: DeepstackTextModel,
    GraniteDoclingTextDecoderLayer: Layer,
    GraniteDoclingTextAttention: ScaledAttention,
    GraniteDoclingTextMLP: ScaledMlp,
}
