"""Cohere 2 (`Cohere2ForCausalLM`, Command R7B): Cohere's parallel block over sliding and global attention.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

As Cohere: one bias-free LayerNorm feeds both sublayers, `layer_mid` is unavailable,
the block adds `(x + attn) + mlp` so the contribution identity holds bit for bit,
and the model multiplies the head's output by `logit_scale` (Cohere's
`project_on_vocab`). `config.layer_types` gives each block a sliding-window or a
global attention; only the sliding blocks rotate their queries and keys, and both
kinds call the shared eager interface. There is no query/key norm.

Cohere 2 is also the text model of Aya Vision (`AyaVisionForConditionalGeneration`):
the text model under `model.language_model`, a SigLIP tower (`vision`), and a
projector that pixel-shuffles each image's patch grid (`downsample_factor` by side)
before a norm and a SwiGLU, so an image has a quarter as many image tokens as
patches; the wrapper scatters in `AyaVisionModel`. The wrapper's head output is not
multiplied by `logit_scale`, so `project_on_vocab` scales on the causal LM only.

And of Command A Vision (`Cohere2VisionForConditionalGeneration`), built as Aya Vision:
the text model under `model.language_model`, a SigLIP tower (`vision`) run once per tile
of an image (a grid of tiles and a thumbnail where the image is larger than one tile),
and a projector that pixel-shuffles each tile's patch grid (`downsample_factor` by side)
into a SwiGLU with no norm before it; the wrapper scatters in `Cohere2VisionModel`, and
its head output is not multiplied by `logit_scale` either.
"""

from transformers.models.aya_vision.modeling_aya_vision import AyaVisionModel
from transformers.models.cohere2.modeling_cohere2 import (
    Cohere2Attention,
    Cohere2DecoderLayer,
    Cohere2ForCausalLM,
    Cohere2MLP,
)
from transformers.models.cohere2_vision.modeling_cohere2_vision import Cohere2VisionModel
from transformers.models.siglip.modeling_siglip import (
    SiglipAttention,
    SiglipEncoderLayer,
    SiglipMLP,
    SiglipVisionModel,
)

from nnterp.components import (
    Attention,
    ImageScatter,
    Mlp,
    ParallelLayer,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import cohere

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "project_on_vocab"]

RENAME = {**cohere.RENAME, **SIGLIP_WRAPPER_RENAME}


def project_on_vocab(model, hidden):
    """The logit lens: the final norm and `lm_head`, then `logit_scale` where the model applies it (the causal LM).

    The wrappers (Aya Vision, Command A Vision) apply no `logit_scale` to their head's output.
    """
    if isinstance(model._module, Cohere2ForCausalLM):
        return cohere.project_on_vocab(model, hidden)
    if not model.interleaver.interleaving:
        hidden = hidden.to(model.lm_head._module.weight.device)
    return model.lm_head(model.norm(hidden))


class Layer(ParallelLayer):
    """Cohere 2's parallel block, Cohere's; the parallel base holds."""


class Attention(Attention):
    """Cohere 2's attention, sliding or global per block; the shared eager interface, so the base holds."""


class Mlp(Mlp):
    """Cohere 2's gated MLP, Llama's; the base holds."""


ENVOYS = {
    Cohere2DecoderLayer: Layer,
    Cohere2Attention: Attention,
    Cohere2MLP: Mlp,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    AyaVisionModel: ImageScatter,
    Cohere2VisionModel: ImageScatter,
}
