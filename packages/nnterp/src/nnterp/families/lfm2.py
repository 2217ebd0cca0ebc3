"""LFM2 (`Lfm2ForCausalLM`): a hybrid of short-convolution blocks and attention blocks.

`config.layer_types` gives each block either `conv`, a gated short convolution
(native `conv`, aliased `linear_attn`, `ShortConvolution`), or `full_attention`,
attention with per-head query/key norms (`self_attn`, its `out_proj` aliased
`o_proj`). Every block has the same
gated MLP (native `feed_forward`, its projections `w1`, `w3`, `w2` aliased
`gate_proj`, `up_proj`, `down_proj`) and Llama's order:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn` and the norms native
`operator_norm` and `ffn_norm`. The final norm is native `embedding_norm`, though it
follows the last block. The MLP applies its SiLU as a function, read at that call.

LFM2 is also the text model of LFM2-VL (`Lfm2VlForConditionalGeneration`): the text
stack under `model.language_model`, a SigLIP2 NaFlex tower (`vision`, at
`model.vision_tower`) that embeds each image's patches with a linear layer, adds its
position table resampled to the image's own grid, and runs every image as a row of its
own padded to the most patches an image can have, the padding masked out of the
attention, its final `post_layernorm` the tower's `norm`. The projector (`projector`,
at `model.multi_modal_projector`) pixel-unshuffles each 2x2 group of the tower's
patches into one row, norms it and maps it through a two-layer MLP to the text width;
`Lfm2VlModel`'s forward scatters its rows into the token embeddings. The wrapper calls
the projector once per image on some releases and once on every image's groups laid
side by side on others, so `image_features`, read at the scatter, is the value that
holds every image's rows in order.
"""

from transformers.models.lfm2.modeling_lfm2 import (
    Lfm2Attention,
    Lfm2DecoderLayer,
    Lfm2MLP,
    Lfm2ShortConv,
)
from transformers.models.lfm2_vl.modeling_lfm2_vl import Lfm2VlModel
from transformers.models.siglip2.modeling_siglip2 import (
    Siglip2Attention,
    Siglip2EncoderLayer,
    Siglip2MLP,
    Siglip2VisionModel,
)

from nnterp.components import (
    Attention,
    EProperty,
    HybridLayer,
    ImageScatter,
    Mlp,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    always,
)
from nnterp.components.mlp import Neurons
from nnterp.components.short_convolution import ShortConvolution
from nnterp.components.vision import variable_resolution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.embedding_norm": "norm",
    "model.language_model.embed_tokens": "embed_tokens",
    "model.language_model.layers": "layers",
    "model.language_model.embedding_norm": "norm",
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    # The tower's inner names, keyed relative to it; its attention's `out_proj` is keyed below with the text's.
    "embeddings.patch_embedding": "patch_embed",
    "encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
    "post_layernorm": "norm",
    Lfm2ShortConv: "linear_attn",
    "self_attn.out_proj": "self_attn.o_proj",
    "operator_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
    "feed_forward": "mlp",
    "feed_forward.w1": "feed_forward.gate_proj",
    "feed_forward.w3": "feed_forward.up_proj",
    "feed_forward.w2": "feed_forward.down_proj",
}


class Layer(HybridLayer):
    """LFM2's block: one mixer, then the MLP, each added to the stream as it is; the base holds."""


class Mlp(Mlp):
    """LFM2's gated MLP, whose SiLU is a function call rather than an `act_fn` module."""

    @EProperty("source.F_silu_0.output", unavailable=always, description="The activation function's output")
    def mlp_activation(self, value) -> Neurons:
        return value


class NaFlexVision(Vision):
    """LFM2-VL's SigLIP2 NaFlex tower: each image a row of its own, at the image's own resolution."""

    image_size = property(variable_resolution)


ENVOYS = {
    Lfm2DecoderLayer: Layer,
    Lfm2Attention: Attention,
    Lfm2ShortConv: ShortConvolution,
    Lfm2MLP: Mlp,
    Siglip2VisionModel: NaFlexVision,
    Siglip2EncoderLayer: VisionLayer,
    Siglip2Attention: VisionAttention,
    Siglip2MLP: VisionMlp,
    Lfm2VlModel: ImageScatter,
}
