"""Gemma (`GemmaForCausalLM`): Llama's block under Llama's names, with a scaled embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The embedding module multiplies its output by `sqrt(hidden_size)`, so
`embed_tokens.output` is the scaled stream block 0 reads. The norms scale by
`1 + weight`, the MLP is gated with a tanh-approximated GELU, and the head is tied
to the embedding; nothing follows the head.

Gemma is also the text model of PaliGemma (`PaliGemmaForConditionalGeneration`): the
text model under `model.language_model`, a SigLIP tower (`vision`), and a linear
projector; the wrapper scatters in `PaliGemmaModel`, into embeddings already scaled,
so the features are the stream block 0 reads at the image tokens. The wrapper's mask
lets the prompt (the image tokens and the text before the answer) attend both ways,
so a text block's pattern has no causal mask over the prompt.
"""

from transformers.models.gemma.modeling_gemma import GemmaAttention, GemmaDecoderLayer, GemmaMLP
from transformers.models.paligemma.modeling_paligemma import PaliGemmaModel
from transformers.models.siglip.modeling_siglip import (
    SiglipAttention,
    SiglipEncoderLayer,
    SiglipMLP,
    SiglipVisionModel,
)

from nnterp.components import Attention, ImageScatter, Layer, Mlp, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **SIGLIP_WRAPPER_RENAME,
}


class Layer(Layer):
    """Gemma's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Gemma's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Gemma's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {
    GemmaDecoderLayer: Layer,
    GemmaAttention: Attention,
    GemmaMLP: Mlp,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    PaliGemmaModel: ImageScatter,
}
