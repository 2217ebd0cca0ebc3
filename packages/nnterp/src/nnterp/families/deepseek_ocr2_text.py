"""DeepSeek-OCR 2's text model (`DeepseekOcr2TextModel`), served on the `DeepseekOcr2ForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

DeepSeek-V2's block with Llama's attention in place of the latent one: plain
multi-head attention, `head_dim = hidden_size // num_attention_heads`, under a
cos/sin rotary embedding. `config.mlp_layer_types` says which blocks carry a dense
gated MLP and which DeepSeek-V2's mixture, so the mixture values are reported per
block: the router (`gate`) scores its logits with a softmax over every expert
(with `topk_method="group_limited_greedy"` it keeps the experts of the best
`topk_group` of `n_group` groups only); `expert_weights` are the chosen softmax
scores, not renormalized, times `routed_scaling_factor`; the shared experts run on
the mixture's input after the routed experts, and the module returns the sum.

The type has no causal-LM class: the default task builds the wrapper with no
processor. The wrapper holds the text model under `model.language_model` and its
tower, `DeepseekOcr2VisionModel` (`vision`, at `model.vision_tower`), in two stages.
SAM's windowed ViT (`sam_encoder`, no alias of its own; its blocks run on a
`[images, rows, columns, width]` grid) turns the image into a grid that its neck and
two stride-2 convolutions shrink 4x by side and bring to the encoder's width; that
grid's rows are `patch_embeddings`. The encoder (`vision_encoder`), Qwen2's blocks
(`vision.layers`) and final norm (`vision.norm`), runs on those patch rows followed by
a fixed set of learned queries (`query_768_resolution`, 144 rows, for a grid of up to
144 patches, else `query_1024_resolution`, 256 rows), under a mask that lets the
patches attend to each other both ways and the queries to the patches and causally to
each other; `tower_output` is the final norm's output over both. The tower returns the
queries' rows alone, and the projector (`projector`, `model.multi_modal_projector`, one
linear) maps them to the text width. The wrapper then writes, per image, the projected
queries of its local tiles (the processor's crops of a large image, one more tower run
on all tiles), then of its global view, then its learned `view_separator`, and
scatters them in `DeepseekOcr2Model`, so `image_features` has one row per image more
than `projector.output`.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.deepseek_ocr2.modeling_deepseek_ocr2 import (
    DeepseekOcr2Model,
    DeepseekOcr2TextAttention,
    DeepseekOcr2TextDecoderLayer,
    DeepseekOcr2TextMLP,
    DeepseekOcr2TextMoe,
    DeepseekOcr2VisionAttention,
    DeepseekOcr2VisionEncoderLayer,
    DeepseekOcr2VisionMLP,
    DeepseekOcr2VisionModel,
)

from nnterp.components import (
    Attention,
    EProperty,
    ImageScatter,
    Layer,
    Mlp,
    Moe,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import WRAPPED_TEXT_RENAME, Patches, no_tower_run

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    # The encoder's names, keyed relative to the tower.
    "vision_encoder.layers": "layers",
    "vision_encoder.norm": "norm",
}


class Moe(Moe):
    """DeepSeek-V2's mixture: a softmax router scaled by `routed_scaling_factor` (`gate`), shared experts."""

    SCORING = "softmax"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


class OcrVision(Vision):
    """DeepSeek-OCR 2's tower: SAM's grid as the patch rows of a Qwen2-block encoder that appends learned queries.

    The sizes are the encoder's (`encoder_config`). `patch_size` is the side, in pixels,
    of the square one patch row covers: SAM's patch times the downsampling of its two
    stride-2 convolutions. `image_size` is SAM's, the global view's side; a large
    image's local tiles run at the processor's `tile_size`.
    """

    @property
    def tower_config(self):
        return self._module.config.encoder_config

    @property
    def patch_size(self) -> int:
        sam = self._module.sam_encoder
        stride = sam.proj.conv1.stride[0] * sam.proj.conv2.stride[0]
        return sam.config.patch_size * stride

    @property
    def image_size(self) -> int:
        return self._module.config.sam_config.image_size

    @EProperty(
        "sam_encoder.output",
        description="SAM's downsampled grid, one row per patch, as the encoder takes it before the queries",
        unavailable=no_tower_run,
    )
    def patch_embeddings(self, value) -> Patches:
        return value.last_hidden_state.flatten(2).transpose(1, 2)

    @patch_embeddings.postprocess
    def patch_embeddings(self, value):
        output = Mediator.value(f"{self.sam_encoder.path}.output")
        grid = output.last_hidden_state
        output["last_hidden_state"] = value.transpose(1, 2).reshape(grid.shape)
        return output

    @EProperty(
        "norm.output",
        description="The last block's stream after the encoder's final norm, patch rows then query rows",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value

    @tower_output.postprocess
    def tower_output(self, value):
        return value


ENVOYS = {
    DeepseekOcr2TextDecoderLayer: Layer,
    DeepseekOcr2TextAttention: Attention,
    DeepseekOcr2TextMLP: Mlp,
    DeepseekOcr2TextMoe: Moe,
    DeepseekOcr2VisionModel: OcrVision,
    DeepseekOcr2VisionEncoderLayer: VisionLayer,
    DeepseekOcr2VisionAttention: VisionAttention,
    DeepseekOcr2VisionMLP: VisionMlp,
    DeepseekOcr2Model: ImageScatter,
}
