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

And of LLaVA-NeXT-Video (`LlavaNextVideoForConditionalGeneration`): VipLlava's CLIP tower
and text stack, with LLaVA-NeXT's any-resolution crops of each image (the resized whole,
then the tiles, each a row of the tower's values, CLS dropped before the projector) and a
learned `image_newline` after each row of the tiles' projected grid, so `image_features`
has more rows than `projector.output`; the wrapper scatters the images first in
`LlavaNextVideoModel` (its videos, pooled by `vision_resampler`, at a second scatter).

And of Video-LLaVA (`VideoLlavaForConditionalGeneration`): two CLIP towers of one config,
`image_tower` (`vision`) and `video_tower` (no alias; it runs on videos only), both
feeding one projector with the CLS row dropped; the wrapper scatters the images first in
`VideoLlavaModel`.

And of DeepSeek-VL (`DeepseekVLForConditionalGeneration`): the text stack under
`model.language_model`, a SigLIP tower (`vision`, `SiglipVisionModel` at
`model.vision_model`) with no pooling head, and an aligner (`projector`), two linears
around a GELU, applied to every patch; the wrapper scatters in `DeepseekVLModel`, so
`image_features` is the aligner's output, one image token per patch.

And of DeepSeek-VL hybrid (`DeepseekVLHybridForConditionalGeneration`): DeepSeek-VL's
layout, with a second tower, SAM's windowed ViT (`model.high_res_vision_model`, no alias),
on a larger copy of each image; its neck and convolutions bring it to the SigLIP grid, and
the aligner (`projector`) projects both towers' patches to half the text width each, joins
them, and projects again. `vision` is the SigLIP tower; `image_features` is the aligner's output.

And of Janus (`JanusForConditionalGeneration`): the text stack under
`model.language_model`, a SigLIP-built tower (`vision`, `JanusVisionModel` at
`model.vision_model`) with no CLS token, whose `post_layernorm` norms every patch (its
`norm`; it runs a second time on the first patch alone, for a pooled output the wrapper
does not use) and whose MLP width is `mlp_ratio` times its own, and an MLP aligner
(`projector`) fed the normed patches; the wrapper scatters in `JanusModel`. Its VQ-VAE
and generation head serve image generation and hold no values.

And of SmolVLM (`SmolVLMForConditionalGeneration`): Idefics 3's layout (the text stack under
`model.text_model`, a SigLIP-built tower at `model.vision_model` whose `post_layernorm`
norms every patch, a pixel-shuffle connector as `projector`), but the wrapper scatters
in `SmolVLMModel`'s own forward, so `image_features` is that `masked_scatter`'s source,
the connector's output, `[images, image_tokens_per_image, hidden_size]` flattened.
"""

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.deepseek_vl.modeling_deepseek_vl import DeepseekVLModel
from transformers.models.deepseek_vl_hybrid.modeling_deepseek_vl_hybrid import DeepseekVLHybridModel
from transformers.models.idefics3.modeling_idefics3 import (
    Idefics3EncoderLayer,
    Idefics3Model,
    Idefics3VisionAttention,
    Idefics3VisionMLP,
    Idefics3VisionTransformer,
)
from transformers.models.janus.modeling_janus import (
    JanusModel,
    JanusVisionAttention,
    JanusVisionEncoderLayer,
    JanusVisionMLP,
    JanusVisionModel,
)
from transformers.models.llama.modeling_llama import LlamaAttention, LlamaDecoderLayer, LlamaMLP
from transformers.models.llava_next_video.modeling_llava_next_video import LlavaNextVideoModel
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel
from transformers.models.smolvlm.modeling_smolvlm import (
    SmolVLMEncoderLayer,
    SmolVLMModel,
    SmolVLMVisionAttention,
    SmolVLMVisionMLP,
    SmolVLMVisionTransformer,
)
from transformers.models.video_llava.modeling_video_llava import VideoLlavaModel
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
    "model.aligner": "projector",
    "model.connector": "projector",
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "model.image_tower": "vision",
    "projection_layer": "o_proj",
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


class JanusVision(SiglipVision):
    """Janus's tower: its config gives the MLP's width as a ratio of its own."""

    @property
    def intermediate_size(self) -> int:
        config = self.tower_config
        return int(config.hidden_size * config.mlp_ratio)


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
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    DeepseekVLModel: ImageScatter,
    DeepseekVLHybridModel: ImageScatter,
    LlavaNextVideoModel: ImageScatter,
    VideoLlavaModel: ImageScatter,
    JanusVisionModel: JanusVision,
    JanusVisionEncoderLayer: VisionLayer,
    JanusVisionAttention: VisionAttention,
    JanusVisionMLP: VisionMlp,
    JanusModel: ImageScatter,
    SmolVLMVisionTransformer: SiglipVision,
    SmolVLMEncoderLayer: VisionLayer,
    SmolVLMVisionAttention: VisionAttention,
    SmolVLMVisionMLP: VisionMlp,
    SmolVLMModel: ImageScatter,
}
