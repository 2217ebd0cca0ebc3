"""Llama (`LlamaForCausalLM`): the family the standard vocabulary is taken from.

Its module changes nothing but lifting the containers out of the inner `model`.

Llama is also the text model of Idefics 3 (`Idefics3ForConditionalGeneration`): the text
stack under `model.text_model`, a SigLIP-built tower (`vision`, at `model.vision_model`),
and a connector (`projector`) that pixel-shuffles the patches and projects them. The
wrapper writes the features in through its `inputs_merger` helper, so `image_features`
is that call's `image_hidden_states`, `[images, image_tokens_per_image, hidden_size]` flattened.

And of VipLlava (`VipLlavaForConditionalGeneration`): the text stack under
`model.language_model`, a CLIP tower (`vision`, at `model.vision_tower`) whose block
values carry the CLS token first on the patch axis, and a projector that norms and
projects several blocks' streams (`vision_feature_layers`), each without its CLS row,
joined along the width; the wrapper scatters in `VipLlavaModel`. CLIP's
`post_layernorm` norms the pooled CLS token only, so `tower_output` is the last block's
stream, and `post_layernorm` is no rename key: Idefics 3's tower, whose
`post_layernorm` norms the patches, serves it as `norm` (`SiglipVision`).
"""

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.idefics3.modeling_idefics3 import (
    Idefics3EncoderLayer,
    Idefics3Model,
    Idefics3VisionAttention,
    Idefics3VisionMLP,
    Idefics3VisionTransformer,
)
from transformers.models.llama.modeling_llama import LlamaAttention, LlamaDecoderLayer, LlamaMLP
from transformers.models.vipllava.modeling_vipllava import VipLlavaModel

from nnterp.components import Attention, ImageScatter, Layer, Mlp, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
    "model.vision_model": "vision",
    "model.connector": "projector",
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    **SIGLIP_TOWER_RENAME,
}


class Layer(Layer):
    """Llama's decoder block; it returns the bare tensor, so the base holds."""


class Attention(Attention):
    """Llama's attention; the shared eager interface and the residual added in the block, so the base holds."""


class Mlp(Mlp):
    """Llama's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


class SiglipVision(Vision):
    """A SigLIP-built tower whose `post_layernorm` norms every patch, so it is the tower's final `norm`."""

    @property
    def norm(self):
        """The tower's final norm, over the patches."""
        return self.post_layernorm


class InputsMerger(ImageScatter):
    """Idefics 3's model: the features enter through its `inputs_merger` call, as `image_hidden_states`."""

    scatter = "self_inputs_merger_0"
    scatter_argument = "image_hidden_states"


ENVOYS = {
    LlamaDecoderLayer: Layer,
    LlamaAttention: Attention,
    LlamaMLP: Mlp,
    Idefics3VisionTransformer: SiglipVision,
    Idefics3EncoderLayer: VisionLayer,
    Idefics3VisionAttention: VisionAttention,
    Idefics3VisionMLP: VisionMlp,
    Idefics3Model: InputsMerger,
    CLIPVisionModel: Vision,
    CLIPEncoderLayer: VisionLayer,
    CLIPAttention: VisionAttention,
    CLIPMLP: VisionMlp,
    VipLlavaModel: ImageScatter,
}
