"""Llama (`LlamaForCausalLM`): the family the standard vocabulary is taken from.

Its module changes nothing but lifting the containers out of the inner `model`.

Llama is also the text model of Idefics 3 (`Idefics3ForConditionalGeneration`): the text
stack under `model.text_model`, a SigLIP-built tower (`vision`, at `model.vision_model`),
and a connector (`projector`) that pixel-shuffles the patches and projects them. The
wrapper writes the features in through its `inputs_merger` helper, so `image_features`
is that call's `image_hidden_states`, `[images, image_tokens_per_image, hidden_size]` flattened.
"""

from transformers.models.idefics3.modeling_idefics3 import (
    Idefics3EncoderLayer,
    Idefics3Model,
    Idefics3VisionAttention,
    Idefics3VisionMLP,
    Idefics3VisionTransformer,
)
from transformers.models.llama.modeling_llama import LlamaAttention, LlamaDecoderLayer, LlamaMLP

from nnterp.components import Attention, ImageScatter, Layer, Mlp, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
    "model.vision_model": "vision",
    "model.connector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}


class Layer(Layer):
    """Llama's decoder block; it returns the bare tensor, so the base holds."""


class Attention(Attention):
    """Llama's attention; the shared eager interface and the residual added in the block, so the base holds."""


class Mlp(Mlp):
    """Llama's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


class InputsMerger(ImageScatter):
    """Idefics 3's model: the features enter through its `inputs_merger` call, as `image_hidden_states`."""

    scatter = "self_inputs_merger_0"
    scatter_argument = "image_hidden_states"


ENVOYS = {
    LlamaDecoderLayer: Layer,
    LlamaAttention: Attention,
    LlamaMLP: Mlp,
    Idefics3VisionTransformer: Vision,
    Idefics3EncoderLayer: VisionLayer,
    Idefics3VisionAttention: VisionAttention,
    Idefics3VisionMLP: VisionMlp,
    Idefics3Model: InputsMerger,
}
