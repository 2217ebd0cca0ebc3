"""Nemotron-H (`NemotronHForCausalLM`): every block a norm and one sublayer, a Mamba-2 mixer, an attention, an MLP or a mixture.

`config.layers_block_type` gives each block its kind, and the block holds that
sublayer under one native name, `mixer`, whatever it is. The block's envoy names
it by kind (`block_aliases`): `linear_attn` (a `StateSpace`) on a Mamba-2 block,
`self_attn` on an attention block, `mlp` on an MLP or a mixture block; the block's
norm (native `norm`) is `input_layernorm` before a mixer or an attention and
`post_attention_layernorm` before an MLP. A block adds its one sublayer to the stream:
`out = x + linear_attn(input_layernorm(x))`, `out = x + self_attn(input_layernorm(x))`
or `out = x + mlp(post_attention_layernorm(x))`, so `layer_input` plus the block's
one contribution is `layer_output`. The MLP is ungated (`up_proj`, a squared ReLU,
`down_proj`). The mixture's router (`gate`) scores with a sigmoid, adds a correction
bias for the choice only, keeps the best `topk_group` of `n_group` expert groups,
then the top `top_k` experts, renormalized when `norm_topk_prob` is set and
multiplied by `routed_scaling_factor`; its ungated `shared_experts` run on the
mixture's input and the module returns the sum. The Mamba-2 scan clamps its step
size to `time_step_limit` first.

Nemotron-H is also the text model of Nemotron-H Omni (`NemotronH_Omni_Reasoning_V3`):
there the text model sits under `language_model.model` and its head at
`language_model.lm_head`. The RADIO tower (`vision`, at `vision_model`) embeds each
patch alone (`patch_embed`, its `patch_projection`), puts a CLS token and registers
before every image's patches, packs every image into one row, and scales each
sublayer's output per channel before the add, `h = x + layer_scale1 *
self_attn(input_layernorm(x)); out = h + layer_scale2 * mlp(post_attention_layernorm(h))`,
so `attention_output` and `mlp_output` are the scaled products. With several images it
calls the attention once per image, so no one call holds the pattern, the scores or
the head outputs. The wrapper drops the prefix rows, pixel-shuffles each image's grid
(`downsample_ratio` by side) and projects it (`projector`, at `multi_modal_projector`),
then scatters the features in its own top-level forward (`ROOT_SCATTER`).
"""

from transformers.models.nemotron_h.modeling_nemotron_h import (
    NemotronHAttention,
    NemotronHBlock,
    NemotronHMamba2Mixer,
    NemotronHMLP,
    NemotronHMoE,
)
from transformers.models.radio.modeling_radio import RadioAttention, RadioLayer, RadioMLP, RadioModel

from nnterp.components import (
    Attention,
    EProperty,
    HybridLayer,
    Mlp,
    Moe,
    StateSpace,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    unavailable,
)
from nnterp.components.attention import Keys, Queries, Values
from nnterp.components.scaled import scaled_output
from nnterp.components.vision import PER_IMAGE, variable_resolution

RENAME = {
    "model.embeddings": "embed_tokens",
    "model.layers": "layers",
    "model.norm_f": "norm",
    # Nemotron-H Omni: the text model under `language_model`, the RADIO tower and the projector.
    "language_model.model.embeddings": "embed_tokens",
    "language_model.model.layers": "layers",
    "language_model.model.norm_f": "norm",
    "language_model.lm_head": "lm_head",
    "vision_model": "vision",
    "multi_modal_projector": "projector",
    # RADIO's inner names, keyed relative to the tower.
    "embeddings.patch_projection": "patch_embed",
    "encoder.layer": "layers",
    "norm1": "input_layernorm",
    "norm2": "post_attention_layernorm",
    "attention": "self_attn",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}

#: Nemotron-H Omni writes the image features into the embeddings in its own forward.
ROOT_SCATTER = True
#: RADIO with several images: one attention call per image.
PER_IMAGE_OUTPUTS = (
    "this tower calls the attention once per image when a prompt holds several, so no one call holds the "
    "head outputs; read attention_premix, every head's output side by side"
)

#: Block kind (`config.layers_block_type`) -> the standard names of its sublayer and of the norm before it.
KINDS = {
    "linear_attention": ("linear_attn", "input_layernorm"),
    "full_attention": ("self_attn", "input_layernorm"),
    "mlp": ("mlp", "post_attention_layernorm"),
    "moe": ("mlp", "post_attention_layernorm"),
}


class Layer(HybridLayer):
    """Nemotron-H's block: one normed sublayer added to the stream, named by the block's kind."""

    def block_aliases(self) -> dict[str, str]:
        sublayer, norm = KINDS[self._module.block_type]
        return {sublayer: "mixer", norm: "norm"}


class Attention(Attention):
    """Nemotron-H's attention; the shared eager interface, no rotary embedding, so the base holds."""


class StateSpace(StateSpace):
    """Nemotron-H's Mamba-2 mixer; Mamba-2's kernels and arguments, so the base holds."""


class Mlp(Mlp):
    """Nemotron-H's ungated MLP, on the MLP blocks and as the mixture's shared experts; the base holds."""


class Moe(Moe):
    """Nemotron-H's mixture: a grouped sigmoid router with a correction bias (`gate`), ungated experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


class RadioVision(Vision):
    """RADIO: every image's patches, each after its CLS token and registers, in one row, at the image's own size.

    Its config gives the MLP's width as a ratio of the stream's.
    """

    ONE_ROW = True
    image_size = property(variable_resolution)

    @property
    def intermediate_size(self) -> int:
        return int(self.vision_hidden_size * self.tower_config.mlp_ratio)


def _layer_scale_1(envoy):
    return envoy.parent._module.layer_scale1.lambda1


def _layer_scale_2(envoy):
    return envoy.parent._module.layer_scale2.lambda1


class RadioVisionAttention(VisionAttention):
    """RADIO's attention: the queries, keys and values at the transposes every run makes, the pattern per image.

    The block multiplies its output by the per-channel `layer_scale1` before the add.
    """

    @EProperty("source.transpose_0.output", description="The queries entering attention")
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty("source.transpose_1.output", description="The keys entering attention")
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty("source.transpose_2.output", description="The values entering attention")
    def attention_values(self, value) -> Values:
        return value

    attention_scores = unavailable(PER_IMAGE)
    attention_probabilities = unavailable(PER_IMAGE)
    attention_head_outputs = unavailable(PER_IMAGE_OUTPUTS)
    attention_output = scaled_output(
        "What the attention adds to the patches' stream, after the block's layer_scale1", multiplier=_layer_scale_1
    )


class RadioVisionMlp(VisionMlp):
    """RADIO's ungated MLP: the block multiplies its output by the per-channel `layer_scale2` before the add."""

    mlp_output = scaled_output(
        "What the MLP adds to the patches' stream, after the block's layer_scale2", multiplier=_layer_scale_2
    )


ENVOYS = {
    NemotronHBlock: Layer,
    NemotronHAttention: Attention,
    NemotronHMamba2Mixer: StateSpace,
    NemotronHMLP: Mlp,
    NemotronHMoE: Moe,
    RadioModel: RadioVision,
    RadioLayer: VisionLayer,
    RadioAttention: RadioVisionAttention,
    RadioMLP: RadioVisionMlp,
}
