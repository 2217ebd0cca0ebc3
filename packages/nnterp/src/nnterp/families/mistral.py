"""Mistral (`MistralForCausalLM`): Llama's block with grouped-query attention over a sliding window.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention passes `config.sliding_window` to the shared interface, which folds the window into
the mask: `attention_scores` are masked outside it and `attention_probabilities` are zero there.

Mistral is also the text model of Idefics 2 (`Idefics2ForConditionalGeneration`): the text
stack under `model.text_model`, a SigLIP-built tower (`vision`, at `model.vision_model`)
whose `post_layernorm` norms every patch (its `norm`), and a connector (`projector`) that
projects the patches and resamples them with a perceiver to a fixed number of latents per
image. The wrapper writes the features in through its `inputs_merger` helper, so
`image_features` is that call's `image_hidden_states`, `[images, latents, hidden_size]` flattened.

And of Mistral 3 (`Mistral3ForConditionalGeneration`, Mistral Small 3.1): the text stack
under `model.language_model`, a Pixtral tower (`vision`, at `model.vision_tower`) that
crops each image's patch grid and packs every image's patches into one row,
`[1, patches, vision_hidden_size]`, with no final norm, and a projector (`projector`, at
`model.multi_modal_projector`) that RMS-norms the stream of the block
`vision_feature_layer` names (the last by default), merges each image's patches in
squares of `spatial_merge_size` by side with a learned linear map, and projects them
to the text width through a two-layer MLP. The wrapper scatters in `Mistral3Model`, one
image token per merged square; the processor's row breaks and image end are text tokens
the scatter skips.
"""

from transformers.models.idefics2.modeling_idefics2 import (
    Idefics2EncoderLayer,
    Idefics2Model,
    Idefics2VisionAttention,
    Idefics2VisionMLP,
    Idefics2VisionTransformer,
)
from transformers.models.mistral.modeling_mistral import MistralAttention, MistralDecoderLayer, MistralMLP
from transformers.models.mistral3.modeling_mistral3 import Mistral3Model
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
)

from nnterp.components import (
    Attention,
    ImageScatter,
    Layer,
    Mlp,
    PixtralVision,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import PIXTRAL_TOWER_RENAME, SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME

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
    # Mistral 3's text model, Pixtral tower and projector; the tower's inner names keyed relative to it.
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    **PIXTRAL_TOWER_RENAME,
}


class Layer(Layer):
    """Mistral's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Mistral's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Mistral's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


class InputsMerger(ImageScatter):
    """Idefics 2's model: the features enter through its `inputs_merger` call, as `image_hidden_states`."""

    scatter = "self_inputs_merger_0"
    scatter_argument = "image_hidden_states"


ENVOYS = {
    MistralDecoderLayer: Layer,
    MistralAttention: Attention,
    MistralMLP: Mlp,
    Idefics2VisionTransformer: Vision,
    Idefics2EncoderLayer: VisionLayer,
    Idefics2VisionAttention: VisionAttention,
    Idefics2VisionMLP: VisionMlp,
    Idefics2Model: InputsMerger,
    PixtralVisionModel: PixtralVision,
    PixtralAttentionLayer: VisionLayer,
    PixtralAttention: VisionAttention,
    PixtralMLP: VisionMlp,
    Mistral3Model: ImageScatter,
}
