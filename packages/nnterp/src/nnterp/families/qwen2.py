"""Qwen2 (`Qwen2ForCausalLM`): Llama's block with biased query/key/value projections and grouped-query attention.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The keys and values are read before `repeat_kv`, so their head axis is
`num_kv_heads` wide while the queries, the pattern and the head outputs are
`num_heads` wide; query head `h` reads key/value head `h // (num_heads // num_kv_heads)`.

Qwen2 is also the text model of Llava wrappers (llava-interleave, LLaVA-NeXT,
LLaVA-OneVision): there the text model sits under `model.language_model`, the SigLIP
tower is `vision`, and the projector, which reads the last block's stream before the
tower's `post_layernorm`, is `projector`. LLaVA-NeXT and LLaVA-OneVision run the tower
on each image's any-resolution crops (the resized whole, then the tiles), so a tower
value has one row per crop; the wrapper unpads the tiles' projected grid and appends
its learned `image_newline` after each grid row before the scatter, so
`image_features` has more rows than `projector.output`. OneVision crops an image only
where its sample holds one image (the processor's `batch_num_images`); an image of a
several-image sample is its padded whole, followed by one newline row.

And of InternVL (`InternVLForConditionalGeneration`): its InternViT tower (`vision`)
puts a CLS token first on the patch axis and scales each sublayer's output per channel
before the add, `h = x + lambda_1 * self_attn(input_layernorm(x)); out = h + lambda_2 *
mlp(post_attention_layernorm(h))`, so `attention_output` and `mlp_output` are the
scaled products. The wrapper drops the CLS row and pixel-shuffles the patch grid
(`downsample_ratio` by side) before the projector, so `projector.input` is the
shuffled grid, and scatters in `InternVLModel`.

And of Ovis2 (`Ovis2ForConditionalGeneration`): its tower (`vision`, at
`model.vision_tower`) runs a transformer of SigLIP's shape with RMS norms, a gated MLP
and a final `rms_norm` (its `norm`) over the patches, whose output is `tower_output`.
The tower then groups the normed patches `hidden_stride` by side and its visual head
turns each group into probabilities over a visual vocabulary; that vocabulary's
embedding table (`projector`, at `model.visual_embeddings_table`) takes them, padded
with zeros for the visual indicators, as soft one-hot rows. The wrapper scatters in `Ovis2Model`, then
writes the indicators' embeddings at their own tokens (`<IMG_START>`, `<IMG_END>`, ...),
which are no image tokens.

And of VideoLLaMA 3 (`VideoLlama3ForConditionalGeneration`): its SigLIP-named NaViT
(`vision`, at `model.vision_model`) packs every image's patches into one row, embeds
each patch alone (`[patches, width, 1, 1]`), turns its queries and keys by a 2-D rotary
embedding and calls the attention once per image, so its pattern and scores are
unavailable. After the final norm (`post_layernorm`, whose output is `tower_output`)
it pools each image's grid by its merge size (one for images: no pooling); its MLP
readout (`projector`, at `model.projector`) projects the patches to the text width and
the wrapper scatters them in `VideoLlama3Model`.

And of GOT-OCR2's class (`GotOcr2ForConditionalGeneration`), which both GOT-OCR2 and
PP-Chart2Table checkpoints build: the text stack under `model.language_model`, a SAM
tower (`vision`, at `model.vision_tower`) whose windowed blocks run on an
`[images, rows, columns, width]` grid before a convolutional neck, and two strided
convolutions as `projector`; the wrapper scatters in `GotOcr2Model`. No class here keys
that tower or the scatter, so `vision` is a plain envoy and serves no value.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.internvl.modeling_internvl import (
    InternVLModel,
    InternVLVisionAttention,
    InternVLVisionLayer,
    InternVLVisionMLP,
    InternVLVisionModel,
)
from transformers.models.llava.modeling_llava import LlavaModel
from transformers.models.llava_next.modeling_llava_next import LlavaNextModel
from transformers.models.llava_onevision.modeling_llava_onevision import LlavaOnevisionModel
from transformers.models.ovis2.modeling_ovis2 import (
    Ovis2MLP,
    Ovis2Model,
    Ovis2VisionAttention,
    Ovis2VisionEncoderLayer,
    Ovis2VisionModel,
)
from transformers.models.qwen2.modeling_qwen2 import Qwen2Attention, Qwen2DecoderLayer, Qwen2MLP
from transformers.models.siglip.modeling_siglip import (
    SiglipAttention,
    SiglipEncoderLayer,
    SiglipMLP,
    SiglipVisionModel,
)
from transformers.models.video_llama_3.modeling_video_llama_3 import (
    VideoLlama3Model,
    VideoLlama3VisionAttention,
    VideoLlama3VisionEncoderLayer,
    VideoLlama3VisionMLP,
    VideoLlama3VisionModel,
)

from nnterp.components import (
    Attention,
    EProperty,
    ImageScatter,
    Layer,
    Mlp,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.scaled import scaled_output
from nnterp.components.vision import SIGLIP_WRAPPER_RENAME, Patches, PatchwiseVision, QwenVisionAttention, no_tower_run

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **SIGLIP_WRAPPER_RENAME,
    # InternViT's inner names, keyed relative to the tower.
    "embeddings.patch_embeddings": "patch_embed",
    "encoder.layer": "layers",
    "layernorm_before": "input_layernorm",
    "layernorm_after": "post_attention_layernorm",
    "attention": "self_attn",
    "projection_layer": "o_proj",
    "layernorm": "norm",
    # Ovis2's tower and its inner names.
    "model.visual_embeddings_table": "projector",
    "transformer.embeddings.patch_embedding": "patch_embed",
    "transformer.encoder.layers": "layers",
    "transformer.rms_norm": "norm",
    "rms_norm1": "input_layernorm",
    "rms_norm2": "post_attention_layernorm",
    "ffn": "mlp",
    # VideoLLaMA 3's tower and readout; its inner names are SigLIP's.
    "model.vision_model": "vision",
    "model.projector": "projector",
}


class Layer(Layer):
    """Qwen2's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Qwen2's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Qwen2's gated MLP; the base holds."""


class InternVision(Vision):
    """InternViT: its config gives the image and patch sides as `(height, width)` pairs, square here."""

    @property
    def patch_size(self) -> int:
        return self.tower_config.patch_size[0]

    @property
    def image_size(self) -> int:
        return self.tower_config.image_size[0]


def _lambda_1(envoy):
    return envoy.parent._module.lambda_1


def _lambda_2(envoy):
    return envoy.parent._module.lambda_2


class InternVisionAttention(VisionAttention):
    """InternViT's attention: the block multiplies its output by the per-channel `lambda_1` before the add."""

    attention_output = scaled_output(
        "What the attention adds to the patches' stream, after the block's lambda_1", multiplier=_lambda_1
    )


class InternVisionMlp(VisionMlp):
    """InternViT's MLP: the block multiplies its output by the per-channel `lambda_2` before the add."""

    mlp_output = scaled_output(
        "What the MLP adds to the patches' stream, after the block's lambda_2", multiplier=_lambda_2
    )


class Ovis2Vision(Vision):
    """Ovis2's tower: its transformer's output is the normed patches, before the visual head groups them."""

    @EProperty(
        "transformer.output",
        description="The last block's stream after the tower's final norm, before the visual head",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.last_hidden_state

    @tower_output.postprocess
    def tower_output(self, value):
        output = Mediator.value(f"{self.transformer.path}.output")
        output["last_hidden_state"] = value.reshape(output.last_hidden_state.shape)
        return output


class VideoLlama3Vision(PatchwiseVision):
    """VideoLLaMA 3's NaViT: `tower_output` is its final norm's output, before it pools each image's grid."""

    @EProperty(
        "norm.output",
        description="The last block's stream after the tower's final norm, before the tower pools it",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.unsqueeze(0)

    @tower_output.postprocess
    def tower_output(self, value):
        return value.squeeze(0)


ENVOYS = {
    Qwen2DecoderLayer: Layer,
    Qwen2Attention: Attention,
    Qwen2MLP: Mlp,
    SiglipVisionModel: Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    LlavaModel: ImageScatter,
    LlavaNextModel: ImageScatter,
    LlavaOnevisionModel: ImageScatter,
    InternVLVisionModel: InternVision,
    InternVLVisionLayer: VisionLayer,
    InternVLVisionAttention: InternVisionAttention,
    InternVLVisionMLP: InternVisionMlp,
    InternVLModel: ImageScatter,
    Ovis2VisionModel: Ovis2Vision,
    Ovis2VisionEncoderLayer: VisionLayer,
    Ovis2VisionAttention: VisionAttention,
    Ovis2MLP: VisionMlp,
    Ovis2Model: ImageScatter,
    VideoLlama3VisionModel: VideoLlama3Vision,
    VideoLlama3VisionEncoderLayer: VisionLayer,
    VideoLlama3VisionAttention: QwenVisionAttention,
    VideoLlama3VisionMLP: VisionMlp,
    VideoLlama3Model: ImageScatter,
}
